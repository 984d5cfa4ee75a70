import { sql, type Expression, type SqlBool } from 'kysely'
import type { SqlAttributes } from './filter-to-sql'

/**
 * How a Group's filterable attributes are read from a query over `teams` (not aliased), for
 * filterToSql. `scim_external_id` and `updated_at` are the wiring's to add to teams.
 *
 * Filterable: id, externalId, displayName, members (.value, .display, .type), meta.created,
 * meta.lastModified, meta.resourceType.
 *
 * displayName is compared through teams.name_key with the same fold that makes team names unique
 * (`foldName`: the wiring passes nameKey of server/db/name-key.ts), so `displayName eq
 * "VENDAS"` finds the team "Vendas" that a POST of "VENDAS" would collide with (409
 * uniqueness): a directory looks before it creates. members are the people whose team it is
 * and whom SCIM sees (not deleted by the directory), as a Group's representation lists them
 * (scim-groups.ts).
 */
export function groupSqlAttributes(foldName: (name: string) => string): SqlAttributes {
  return {
    id: { kind: 'uuid', expression: sql.ref('teams.id') },
    externalId: { kind: 'text', expression: sql.ref('teams.scim_external_id') },
    displayName: { kind: 'text', expression: sql.ref('teams.name_key'), folded: foldName },
    members: {
      kind: 'relation',
      exists: (condition: Expression<SqlBool>) =>
        sql<SqlBool>`exists (select 1 from accounts as member where member.team_id = teams.id and member.scim_removed_at is null and ${condition})`,
      subAttributes: {
        value: { kind: 'uuid', expression: sql.ref('member.id') },
        display: { kind: 'text', expression: sql.ref('member.name') },
        type: { kind: 'constant', value: 'User' },
      },
    },
    meta: {
      kind: 'complex',
      subAttributes: {
        created: { kind: 'timestamp', expression: sql.ref('teams.created_at') },
        lastModified: { kind: 'timestamp', expression: sql.ref('teams.updated_at') },
        resourceType: { kind: 'constant', value: 'Group' },
      },
    },
  }
}
