import { sql } from 'kysely'
import { foldCase } from './attribute-schema'
import type { Engine, SqlAttributes } from './filter-to-sql'

/**
 * How a User's filterable attributes are read from a query over `accounts` (not aliased), for
 * filterToSql. The column `scim_external_id` is the wiring's to add (text, null until a directory
 * sets it); the rest exist.
 *
 * Filterable: id, externalId, userName, displayName, name.formatted, name.givenName,
 * name.familyName, active, emails (.value, .type, .primary), groups.value, groups.display,
 * meta.created, meta.lastModified, meta.resourceType. Not: schemas, groups.$ref, meta.location,
 * meta.version (invalidFilter).
 *
 * - userName and emails.value are accounts.email, stored canonical (ASCII, lower-case:
 *   canonicalEmail in common/account-rules.ts), so the filter's value is folded the same way and
 *   compared to the column (its unique index serves `userName eq`, what directories send before
 *   creating). A look-alike (`\u212Aate@…`) keeps its non-ASCII letter and matches nobody.
 * - name.givenName is the name's first word and name.familyName the rest, split in SQL at the
 *   first space as splitName (user-resource.ts) splits it for GET.
 * - active is `status = 'active'` (an invited person is active; a pending registration is not).
 */
export function userSqlAttributes(engine: Engine): SqlAttributes {
  const name = sql.ref<string>('accounts.name')
  const email = sql.ref<string>('accounts.email')
  // The first space of the name (0 when there is none), in each engine's words. Names are
  // stored trimmed (common/name-rules.ts).
  const blank =
    engine === 'postgres' ? sql<number>`strpos(${name}, ' ')` : sql<number>`instr(${name}, ' ')`
  const givenName = sql<string>`case when ${blank} = 0 then ${name} else substr(${name}, 1, ${blank} - 1) end`
  const familyName = sql<
    string | null
  >`case when ${blank} = 0 then null else ltrim(substr(${name}, ${blank} + 1)) end`
  return {
    id: { kind: 'uuid', expression: sql.ref('accounts.id') },
    externalId: { kind: 'text', expression: sql.ref('accounts.scim_external_id') },
    userName: { kind: 'text', expression: email, folded: foldCase },
    displayName: { kind: 'text', expression: name },
    name: {
      kind: 'complex',
      subAttributes: {
        formatted: { kind: 'text', expression: name },
        givenName: { kind: 'text', expression: givenName },
        familyName: { kind: 'text', expression: familyName },
      },
    },
    active: { kind: 'flag', whenTrue: sql`accounts.status = 'active'` },
    emails: {
      kind: 'complex',
      subAttributes: {
        value: { kind: 'text', expression: email, folded: foldCase },
        type: { kind: 'constant', value: 'work' },
        primary: { kind: 'constant', value: true },
      },
    },
    groups: {
      kind: 'complex',
      subAttributes: {
        value: { kind: 'uuid', expression: sql.ref('accounts.team_id') },
        display: {
          kind: 'text',
          expression: sql`(select teams.name from teams where teams.id = accounts.team_id)`,
        },
      },
    },
    meta: {
      kind: 'complex',
      subAttributes: {
        created: { kind: 'timestamp', expression: sql.ref('accounts.created_at') },
        lastModified: { kind: 'timestamp', expression: sql.ref('accounts.updated_at') },
        resourceType: { kind: 'constant', value: 'User' },
      },
    },
  }
}
