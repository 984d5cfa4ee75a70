import { sql } from 'kysely'
import { normalizeAccountId } from '../../common/account-id'
import type { Access } from '../../common/api/roles'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { roleOutranks } from '../roles/rank'
import { reachableSql } from '../roles/team-scope'
import type { AccountStatus, Role } from '../../common/account-rules'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import { apiError } from '../http/errors'
import { builtInRoleId, roleColumns } from '../db/role-columns'
import { nameColumns } from '../db/name-columns'
import { endAllSessions } from './sessions'
import type { SignInLimits } from './sign-in-limits'

/**
 * What an admin does to other accounts, with the rules that hold whichever route asks: an id is
 * a plain UUID compared in lower case, nobody changes their own status or role, nobody acts on a
 * person whose role outranks theirs, and no change leaves the panel without an active admin.
 */

export const invalidAccountId = () => apiError(400, 'invalid_account_id', 'invalid_input')
const notFound = () => apiError(404, 'account_not_found', 'not_found')
const ownAccount = () => apiError(400, 'own_account')
const lastAdmin = () => apiError(409, 'last_admin')
const outranked = () => apiError(403, 'outranked')

/** The id in its one spelling, or a 400. */
export function accountIdFrom(raw: string): string {
  const id = normalizeAccountId(raw)
  if (id === null) throw invalidAccountId()
  return id
}

/** The normalised id of another account: your own is changed in "Minha conta" (400 own_account). */
export function refuseOwnAccount(actor: Account, rawId: string): string {
  const id = accountIdFrom(rawId)
  if (id === actor.id.toLowerCase()) throw ownAccount()
  return id
}

/**
 * The account a caller may see, by any accepted spelling of its id; 404 when there is none, or
 * when it is out of the caller's reach (`access`: scope team, roles/team-scope.ts), read with the
 * reach in the query. Without `access`, anyone (the callers that are not a person: tests).
 */
export async function findReachableAccount(
  db: Db,
  rawId: string,
  access?: Access,
): Promise<Account> {
  let query = db.selectFrom('accounts').selectAll().where('id', '=', accountIdFrom(rawId))
  if (access) query = query.where(reachableSql(access))
  const target = await query.executeTakeFirst()
  if (!target) throw notFound()
  return target
}

/** 403 outranked when the target's role holds a permission the caller's lacks (roles/rank.ts). */
async function refuseOutranked(db: Db, target: Account, access: Access | undefined) {
  if (access && (await roleOutranks(db, target.role_id, access))) throw outranked()
}

/**
 * The account a caller acts on: reachable as findReachableAccount says (404 otherwise), and not
 * of a role that outranks the caller's (403 outranked). Every action on another person reads
 * it so; only reading their page takes findReachableAccount.
 */
export async function findAdministeredAccount(
  db: Db,
  rawId: string,
  access?: Access,
): Promise<Account> {
  const target = await findReachableAccount(db, rawId, access)
  await refuseOutranked(db, target, access)
  return target
}

/**
 * Run inside an administration's transaction once the change is made (the audit log writes its
 * event there): a failure undoes the change.
 */
export type WithinChange = (trx: Db, before: Account, after: Account | undefined) => Promise<void>

/**
 * The account, read with its row locked to the end of the transaction (an UPDATE that changes
 * nothing, as lockAdminChanges does: PostgreSQL holds the row lock and answers the row as the
 * last committed change left it; SQLite takes its write lock). Two admins changing the same
 * person at once are serialised, and the second sees what the first did: a person approved by
 * two admins together is approved once.
 */
function lockAccount(
  trx: Db,
  id: string,
  access: Access | undefined,
): Promise<Account | undefined> {
  return trx
    .updateTable('accounts')
    .set((set) => ({ updated_at: set.ref('updated_at') }))
    .where('id', '=', id)
    .where(access ? reachableSql(access) : sql<boolean>`1 = 1`)
    .returningAll()
    .executeTakeFirst()
}

const isActiveAdmin = (account: { role: Role; status: AccountStatus }) =>
  account.role === 'admin' && account.status === 'active'

/**
 * Takes the lock every change an admin makes to an account takes first (the one row of
 * account_change_lock, with an UPDATE that changes nothing: PostgreSQL holds its row lock to the
 * end of the transaction, SQLite its write lock), before the target's own row, so such changes are
 * made one after another and in one order (two admins demoting each other at once: the second
 * sees the first's change; two bulk approvals that overlap: no deadlock). Answers how many active
 * admins there are once it is held, counted from account_tallies (kept by triggers in the writing
 * transaction), and at most 2: what the last-admin rule needs to know. A team's deletion takes it
 * too, after the team's row as a Group's change does (features/teams/teams-routes.ts,
 * features/provisioning/scim-groups.ts): it takes its people out of the team.
 */
export async function lockAdminChanges(trx: Db): Promise<number> {
  await trx
    .updateTable('account_change_lock')
    .set((set) => ({ id: set.ref('id') }))
    .where('id', '=', 1)
    .execute()
  // An invited admin's status is `active` (the tallies say `invited`): an active admin too.
  const { count } = await trx
    .selectFrom('account_tallies')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('count'))
    .where('role_id', '=', BUILT_IN_ROLE_IDS.admin)
    .where('status', 'in', ['active', 'invited'])
    .executeTakeFirstOrThrow()
  return Math.min(Number(count ?? 0), 2)
}

/** Refuses a change that would leave no active admin (`activeAdmins` from lockAdminChanges). */
function keepAnActiveAdmin(
  activeAdmins: number,
  target: Account,
  after: { role: Role; status: AccountStatus } | 'removed',
): void {
  const stillActiveAdmin = after !== 'removed' && isActiveAdmin(after)
  if (isActiveAdmin(target) && !stillActiveAdmin && activeAdmins <= 1) throw lastAdmin()
}

/**
 * The account locked as writeAccountChangeWithin locks it (the admins' changes first, then the
 * account), for a caller that reads the account, decides, and then writes through
 * writeAccountChangeWithin in the same transaction: the provisioning routes
 * (features/provisioning/), whose PATCH must not lose a concurrent one's change.
 */
export async function lockAccountForChange(trx: Db, id: string): Promise<Account | undefined> {
  await lockAdminChanges(trx)
  return lockAccount(trx, id, undefined)
}

export interface AccountChange {
  status?: Exclude<AccountStatus, 'pending'>
  /** The old name of a built-in role (admin: Administrador; staff: Equipe); `roleId` wins. */
  role?: Role
  roleId?: string
  /** null: no team. */
  teamId?: string | null
  name?: string
}

/** What a change may be decided from, besides the account as it is once locked. */
export interface ChangeContext {
  /** The account is the only active admin: a change that demotes or disables it is refused. */
  lastActiveAdmin: boolean
}

export type DecideChange = (before: Account, context: ChangeContext) => AccountChange | null

/**
 * Writes a change an admin makes to another account (approve, disable, re-enable, promote,
 * demote, rename) under the rules above, and runs `within` (the caller's audit event, a mail)
 * in the same transaction: both are kept, or neither. `change` may be decided from the account
 * as it is once locked: null then means there is nothing to do (a bulk approval of someone
 * another admin approved meanwhile), and nothing is written (`changed` false).
 */
export async function writeAccountChange(
  db: Db,
  actor: Account,
  rawId: string,
  change: AccountChange | DecideChange,
  within?: WithinChange,
  access?: Access,
): Promise<{ before: Account; after: Account; changed: boolean }> {
  const id = refuseOwnAccount(actor, rawId)
  return db
    .transaction()
    .execute((trx) => writeAccountChangeWithin(trx, id, change, within, access))
}

/**
 * writeAccountChange's rules inside a transaction the caller holds, for a change nobody makes
 * from Equipe: a sign-in provider's mapping of the person's role and team
 * (features/sign-in-with-provider/account-for-identity.ts). `id` is already normalised.
 */
export async function writeAccountChangeWithin(
  trx: Db,
  id: string,
  change: AccountChange | DecideChange,
  within?: WithinChange,
  access?: Access,
): Promise<{ before: Account; after: Account; changed: boolean }> {
  const activeAdmins = await lockAdminChanges(trx)
  const target = await lockAccount(trx, id, access)
  if (!target) throw notFound()
  await refuseOutranked(trx, target, access)
  const lastActiveAdmin = activeAdmins <= 1 && isActiveAdmin(target)
  const wanted = typeof change === 'function' ? change(target, { lastActiveAdmin }) : change
  if (wanted === null) return { before: target, after: target, changed: false }
  const roleId = wanted.roleId ?? (wanted.role ? builtInRoleId(wanted.role) : target.role_id)
  const role = roleColumns(roleId)
  const after = { role: role.role, status: wanted.status ?? target.status }
  keepAnActiveAdmin(activeAdmins, target, after)
  const row = await trx
    .updateTable('accounts')
    .set({
      ...role,
      status: after.status,
      team_id: wanted.teamId === undefined ? target.team_id : wanted.teamId,
      ...nameColumns(wanted.name ?? target.name),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  if (after.status === 'disabled' && target.status !== 'disabled')
    await endAllSessions(trx, id, 'session_account_disabled')
  await within?.(trx, target, row)
  return { before: target, after: row, changed: true }
}

/** Refuses a pending registration: the account is removed. Anything else is not_pending (409). */
export async function removePendingAccount(
  db: Db,
  actor: Account,
  rawId: string,
  within?: WithinChange,
  access?: Access,
): Promise<Account> {
  const id = refuseOwnAccount(actor, rawId)
  return db.transaction().execute(async (trx) => {
    const activeAdmins = await lockAdminChanges(trx)
    const target = await lockAccount(trx, id, access)
    if (!target) throw notFound()
    await refuseOutranked(trx, target, access)
    if (target.status !== 'pending') {
      throw apiError(409, 'not_pending')
    }
    keepAnActiveAdmin(activeAdmins, target, 'removed')
    await trx.deleteFrom('accounts').where('id', '=', id).execute()
    await within?.(trx, target, undefined)
    return target
  })
}

/**
 * Lifts every sign-in wait of an account (its owner asked an admin). The account, and whether it
 * was locked before.
 */
export async function unlockAccount(
  db: Db,
  limits: SignInLimits,
  rawId: string,
  access?: Access,
): Promise<{ account: Account; wasLocked: boolean }> {
  const account = await findAdministeredAccount(db, rawId, access)
  const wasLocked = await limits.isLocked(account.email)
  await limits.unlock(account.email)
  return { account, wasLocked }
}
