import { sql, type RawBuilder } from 'kysely'
import type { Access } from '../../common/api/roles'

/**
 * Scope `team` in the query, not after it (docs/roles-and-teams.md): a condition on the
 * `accounts` row that holds for the people a caller may reach. Scope `all`: everyone; `team`:
 * the people of the caller's own team; `team` with no team: nobody. Every read and write of
 * another person's account adds it, so a row out of reach is never read: by any id, list or
 * bulk call it is "not found", as if it did not exist.
 */
export function reachableSql(access: Access, column = 'accounts.team_id'): RawBuilder<boolean> {
  if (access.scope === 'all') return sql<boolean>`1 = 1`
  if (access.teamId === null) return sql<boolean>`1 = 0`
  return sql<boolean>`${sql.ref(column)} = ${access.teamId}`
}

/**
 * The condition on an `audit_events` row: about a person the
 * caller reaches. Scope `all` sees every event, those about nobody (a role created) included.
 */
export function reachableEventSql(access: Access): RawBuilder<boolean> {
  if (access.scope === 'all') return sql<boolean>`1 = 1`
  // Asked of each row as a page is read, by the account's key: not a list of the whole team,
  // made again for every page (SQLite builds an `in (select …)` whole before the first row).
  return sql<boolean>`exists (select 1 from accounts where accounts.id = audit_events.account_id and ${reachableSql(access)})`
}

/** The same rule for a row already read (what a use case decides before writing). */
export function reaches(access: Access, teamId: string | null): boolean {
  return access.scope === 'all' || (access.teamId !== null && teamId === access.teamId)
}
