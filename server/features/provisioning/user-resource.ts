import { USER_SCHEMA } from './user-schema'
import { resourceVersion } from './resource-version'

/**
 * A person as a SCIM User (RFC 7643 §4.1), from what Painel keeps of them.
 *
 * - userName and the one e-mail are the account's canonical address (common/account-rules.ts).
 * - name.formatted and displayName are the account's name. givenName is its first word and
 *   familyName the rest ("Maria da Silva" → "Maria", "da Silva"): Painel keeps one name, so a
 *   directory that sent "Maria Clara" + "Souza" reads back "Maria" + "Clara Souza"
 *   (docs/provisioning.md: map displayName).
 * - groups is the person's team, if any.
 * - meta.version is a digest of the rest (resource-version.ts).
 */

export interface UserRecord {
  id: string
  email: string
  name: string
  active: boolean
  externalId: string | null
  createdAt: Date
  updatedAt: Date
  team: { id: string; name: string } | null
}

export type ScimResource = Record<string, unknown> & { schemas: string[]; id: string }

/**
 * "Maria da Silva" → given "Maria", family "da Silva"; one word → given only. Split at the first
 * ASCII space of the (already trimmed: common/name-rules.ts) name, the same split that
 * user-sql-attributes.ts makes in SQL, so a filter on name.givenName finds what GET shows.
 */
export function splitName(name: string): { givenName: string; familyName?: string } {
  const at = name.indexOf(' ')
  if (at < 0) return { givenName: name }
  const familyName = name.slice(at + 1).replace(/^ +/, '')
  return familyName
    ? { givenName: name.slice(0, at), familyName }
    : { givenName: name.slice(0, at) }
}

/** `baseUrl` is the SCIM base the client used, such as `https://painel.example/scim/v2`. */
export function userResource(record: UserRecord, baseUrl: string): ScimResource {
  const { givenName, familyName } = splitName(record.name)
  const resource: ScimResource = {
    schemas: [USER_SCHEMA],
    id: record.id,
    ...(record.externalId !== null ? { externalId: record.externalId } : {}),
    userName: record.email,
    name: {
      formatted: record.name,
      ...(givenName ? { givenName } : {}),
      ...(familyName ? { familyName } : {}),
    },
    displayName: record.name,
    active: record.active,
    emails: [{ value: record.email, type: 'work', primary: true }],
    ...(record.team
      ? {
          groups: [
            {
              value: record.team.id,
              $ref: `${baseUrl}/Groups/${record.team.id}`,
              display: record.team.name,
            },
          ],
        }
      : {}),
    meta: {
      resourceType: 'User',
      created: record.createdAt.toISOString(),
      lastModified: record.updatedAt.toISOString(),
      location: `${baseUrl}/Users/${record.id}`,
    },
  }
  ;(resource.meta as Record<string, string>).version = resourceVersion(resource)
  return resource
}
