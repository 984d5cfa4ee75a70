import { sql } from 'kysely'
import type { TeamItem } from '../../common/api/roles'
import { DELETE_BATCH, inBatches, runBatch } from '../db/batched-delete'
import type { Db } from '../db/database'
import { bytewise, engineOf } from '../db/portable-sql'

/**
 * The teams, each with its managers: its members whose role is scoped to the team and may
 * approve its registrations (they are who a registration to the team waits for).
 */

/** The condition on `accounts` (joined to its role) that makes a member a team manager. */
export const isTeamManagerSql = sql<boolean>`(roles.scope = 'team' and exists (
  select 1 from role_permissions
  where role_permissions.role_id = roles.id and role_permissions.permission = 'staff.approve'))`

/** How many of a team's managers its item names, first by name; managerCount counts them all. */
export const MANAGERS_NAMED = 5

/**
 * The teams (all, or the one `only` names), each with its number of people and of managers, and
 * its first MANAGERS_NAMED managers by name. The numbers are sums of account_tallies' few rows
 * (db/list-migrations.ts, 4203), and each team's managers are read in name order from an index
 * of the team's people by role (accounts_team_role_order, 4213) up to the fifth: Equipe, an account's page and the invitation load this
 * list, and at 100k people (npm run bench -- --only scale's seeding code: 8 teams, 3,372
 * managers) counting each team's people and naming every manager took 42-51 ms on SQLite, with
 * its event loop held, and 32 ms on PostgreSQL (by hand, 2026-12-01).
 */
export async function listTeams(db: Db, only?: string): Promise<TeamItem[]> {
  let query = db
    .selectFrom('teams')
    .select(['id', 'name', 'description', 'open'])
    .orderBy('name_key')
  if (only) query = query.where('id', '=', only)
  const teams = await query.execute()
  if (teams.length === 0) return []
  const managerRoles = (
    await db.selectFrom('roles').select('id').where(isTeamManagerSql).execute()
  ).map((role) => role.id)
  const tallies = await db
    .selectFrom('account_tallies')
    .select(['team_key', 'role_id', 'status', 'count'])
    .where(
      'team_key',
      'in',
      teams.map((team) => team.id),
    )
    .where('count', '>', 0)
    .execute()
  const engine = engineOf(db)
  const items: TeamItem[] = []
  for (const team of teams) {
    const rows = tallies.filter((row) => row.team_key === team.id)
    // The tallies count an active account as 'active' or, while its invitation waits, 'invited'.
    const managerCount = rows
      .filter((row) => managerRoles.includes(row.role_id))
      .filter((row) => row.status === 'active' || row.status === 'invited')
      .reduce((sum, row) => sum + Number(row.count), 0)
    const managers =
      managerCount === 0
        ? []
        : await db
            .selectFrom('accounts')
            .select(['id', 'name'])
            .where('team_id', '=', team.id)
            .where(sql<boolean>`(case when status = 'pending' then 0 else 1 end) = 1`)
            .where('status', '=', 'active')
            .where('role_id', 'in', managerRoles)
            .orderBy(bytewise(engine, 'name_sort_key'))
            .orderBy(bytewise(engine, 'name'))
            .orderBy('id')
            .limit(MANAGERS_NAMED)
            .execute()
    items.push({
      id: team.id,
      name: team.name,
      description: team.description,
      open: Boolean(team.open),
      managers,
      managerCount,
      memberCount: rows.reduce((sum, row) => sum + Number(row.count), 0),
    })
  }
  return items
}

export async function findTeamItem(db: Db, id: string): Promise<TeamItem | undefined> {
  return (await listTeams(db, id))[0]
}

/** The open teams a registration may name: id and name only. */
export function listOpenTeams(db: Db): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('teams')
    .select(['id', 'name'])
    .where('open', '=', true)
    .orderBy('name_key')
    .execute()
}

/**
 * The team's row, locked to the end of the transaction (an UPDATE that changes nothing:
 * PostgreSQL holds the row lock, SQLite its write lock), answered as the last committed change
 * left it; undefined when there is no such team. Every change of a team takes it first: a
 * Group's change and a team's deletion then take the admins' lock
 * (accounts/account-administration.ts, lockAdminChanges), in that order.
 */
export function lockTeam(trx: Db, id: string) {
  return trx
    .updateTable('teams')
    .set((set) => ({ name: set.ref('name') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Takes everyone out of a team about to be deleted (they keep their accounts, with no team) and
 * answers how many there were, in the transaction that deletes it, after lockTeam. The team's
 * foreign key moves them in the delete's one statement: a team of 11,975 people (of the 100k
 * npm run bench -- --only scale's seeding code makes) held SQLite's event loop 317-607 ms that
 * way. On SQLite they go a hundred a statement, with a turn of the loop between; most have gone
 * already, in transactions of their own (moveMembersOutInSteps). PostgreSQL holds no loop: they
 * are counted, and the delete moves them (2.2-2.4 s there, against 3.4-4.0 s in batches or in an
 * UPDATE of their own; by hand, 2026-12-01).
 */
export async function moveMembersOut(trx: Db, teamId: string): Promise<number> {
  if (engineOf(trx) === 'postgres') return countMembers(trx, teamId)
  return inBatches(
    async (limit) =>
      (
        await trx
          .updateTable('accounts')
          .set({ team_id: null })
          .where('id', 'in', (eb) =>
            eb.selectFrom('accounts').select('id').where('team_id', '=', teamId).limit(limit),
          )
          .executeTakeFirst()
      ).numUpdatedRows,
  )
}

/** What the deletion of a team records as its people start to leave it (its audit event). */
export type RecordDeletionStart = (
  trx: Db,
  team: { name: string; members: number },
) => Promise<void>

/**
 * SQLite: takes a team's people out of it before the transaction that deletes it, a hundred a
 * transaction, each committed, with a turn of the event loop between; answers how many.
 * PostgreSQL: none (0), its delete moves them.
 *
 * In one transaction, the COMMIT alone writes every page the move touched and waits for the
 * disk, on the event loop's thread: for a team of 11,975 at 100k people the loop was held
 * 113-265 ms there, even with checkpoints on their own thread (db/wal-checkpointer.ts; npx tsx
 * scripts/bench/year-writes.ts, 2026-12-01). A hundred people's commit is a few milliseconds,
 * but up to 50-116 ms while a checkpoint's fsync runs, which it does several times during the
 * move (it writes about 80 MB of WAL): so after the first step the server's steps run on the
 * database's thread (stepRunner in db/sqlite-dialect.ts), and the loop waits for no disk.
 * The deletion's own transaction then takes out those who joined meanwhile (moveMembersOut),
 * checks that the team still exists, and deletes it. A team whose deletion fails after this
 * (the disk full, say) is left with fewer people or none, which the admin was taking from it:
 * so the first step, in its own transaction, has `recordStart` write that the deletion began and
 * how many people the team had, and the log never lacks the people who left it.
 */
export async function moveMembersOutInSteps(
  db: Db,
  teamId: string,
  recordStart: RecordDeletionStart,
): Promise<number> {
  if (engineOf(db) === 'postgres') return 0
  const moveSome = (trx: Db, limit: number) =>
    trx
      .updateTable('accounts')
      .set({ team_id: null })
      .where('id', 'in', (eb) =>
        eb.selectFrom('accounts').select('id').where('team_id', '=', teamId).limit(limit),
      )
  const first = await db.transaction().execute(async (trx) => {
    const team = await trx
      .selectFrom('teams')
      .select('name')
      .where('id', '=', teamId)
      .executeTakeFirst()
    const members = team ? await countMembers(trx, teamId) : 0
    if (members === 0) return 0
    await recordStart(trx, { name: team!.name, members })
    return Number((await moveSome(trx, DELETE_BATCH).executeTakeFirst()).numUpdatedRows)
  })
  if (first < DELETE_BATCH) return first
  // The server's steps run on the database's thread: their COMMITs wait for the disk there.
  return first + (await inBatches((limit) => runBatch(db, moveSome(db, limit))))
}

async function countMembers(trx: Db, teamId: string): Promise<number> {
  const { count } = await trx
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow()
  return Number(count)
}
