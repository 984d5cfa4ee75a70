import { GROUP_SCHEMA } from './group-schema'
import type { ScimResource } from './user-resource'

/**
 * A team as a SCIM Group (RFC 7643 §4.2): its name, its people as members (in id order, so the
 * same team always reads the same), and meta. A team with nobody has
 * no `members` (RFC 7643 §2.5: an empty multi-valued attribute is unassigned).
 */

export interface GroupRecord {
  id: string
  name: string
  externalId: string | null
  createdAt: Date
  /** The last change of the team or of who is in it. */
  updatedAt: Date
  /** The stamp triggers make anew at every change of what the Group shows (group_versions). */
  version: string
  members: { id: string; name: string }[]
}

export function groupResource(record: GroupRecord, baseUrl: string): ScimResource {
  const members = [...record.members]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((member) => ({
      value: member.id,
      $ref: `${baseUrl}/Users/${member.id}`,
      display: member.name,
      type: 'User',
    }))
  const resource: ScimResource = {
    schemas: [GROUP_SCHEMA],
    id: record.id,
    ...(record.externalId !== null ? { externalId: record.externalId } : {}),
    displayName: record.name,
    ...(members.length > 0 ? { members } : {}),
    meta: {
      resourceType: 'Group',
      created: record.createdAt.toISOString(),
      lastModified: record.updatedAt.toISOString(),
      location: `${baseUrl}/Groups/${record.id}`,
      version: groupVersionTag(record.version),
    },
  }
  return resource
}

/**
 * meta.version and the ETag (RFC 7644 §3.14): weak, as a User's (resource-version.ts), since the
 * same Group is shown in more than one form (with or without its members).
 */
export const groupVersionTag = (version: string): string => `W/"${version}"`
