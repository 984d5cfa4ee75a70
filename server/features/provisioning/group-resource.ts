import { GROUP_SCHEMA } from './group-schema'
import { resourceVersion } from './resource-version'
import type { ScimResource } from './user-resource'

/**
 * A team as a SCIM Group (RFC 7643 §4.2): its name, its people as members (in id order, so the
 * same team always reads the same and keeps its meta.version), and meta. A team with nobody has
 * no `members` (RFC 7643 §2.5: an empty multi-valued attribute is unassigned).
 */

export interface GroupRecord {
  id: string
  name: string
  externalId: string | null
  createdAt: Date
  /** The last change of the team or of who is in it. */
  updatedAt: Date
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
    },
  }
  ;(resource.meta as Record<string, string>).version = resourceVersion(resource)
  return resource
}
