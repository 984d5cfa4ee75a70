import { normalizeAccountId } from '../../common/account-id'
import type { AccountStatus, Role } from '../../common/account-rules'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import { HttpError } from '../http/errors'
import { findAccountById } from './accounts'
import { endAllSessions } from './sessions'
import type { SignInLimits } from './sign-in-limits'

/**
 * What an admin does to other accounts, with the rules that hold whichever route asks: an id is
 * a plain UUID compared in lower case, nobody changes their own status or role, and no change
 * leaves the panel without an active admin.
 */

export const invalidAccountId = () =>
  new HttpError(400, 'invalid_input', 'Identificador de conta inválido.')
const notFound = () => new HttpError(404, 'not_found', 'Conta não encontrada.')
const ownAccount = () =>
  new HttpError(
    400,
    'own_account',
    'Você não pode mudar a situação ou o papel da sua própria conta.',
  )
const lastAdmin = () =>
  new HttpError(
    409,
    'last_admin',
    'Esta é a última conta de administrador ativa: ative ou promova outra antes.',
  )

/** The id in its one spelling, or a 400. */
export function accountIdFrom(raw: string): string {
  const id = normalizeAccountId(raw)
  if (id === null) throw invalidAccountId()
  return id
}

const isActiveAdmin = (account: { role: Role; status: AccountStatus }) =>
  account.role === 'admin' && account.status === 'active'

/**
 * Refuses a change that would leave no active admin. The active admins' rows are locked first
 * (an UPDATE that changes nothing: PostgreSQL holds their row locks to the end of the
 * transaction, SQLite its write lock), so two admins demoting each other at once are serialised
 * and the second sees the first's change.
 */
async function keepAnActiveAdmin(
  trx: Db,
  target: Account,
  after: { role: Role; status: AccountStatus } | 'removed',
): Promise<void> {
  const activeAdmins = await trx
    .updateTable('accounts')
    .set((set) => ({ updated_at: set.ref('updated_at') }))
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .returning('id')
    .execute()
  const stillActiveAdmin = after !== 'removed' && isActiveAdmin(after)
  const targetIsActiveAdmin = activeAdmins.some((admin) => admin.id === target.id)
  if (targetIsActiveAdmin && !stillActiveAdmin && activeAdmins.length <= 1) throw lastAdmin()
}

/** Approves, disables, re-enables, promotes or demotes another account. */
export async function changeAccount(
  db: Db,
  actor: Account,
  rawId: string,
  change: { status?: Exclude<AccountStatus, 'pending'>; role?: Role },
): Promise<Account> {
  const id = accountIdFrom(rawId)
  if (id === actor.id.toLowerCase()) throw ownAccount()
  const updated = await db.transaction().execute(async (trx) => {
    const target = await findAccountById(trx, id)
    if (!target) throw notFound()
    const after = { role: change.role ?? target.role, status: change.status ?? target.status }
    await keepAnActiveAdmin(trx, target, after)
    const row = await trx
      .updateTable('accounts')
      .set({ ...after, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    if (after.status === 'disabled') await endAllSessions(trx, id)
    return row
  })
  return updated
}

/** Refuses a pending registration: the account is removed. Anything else is not_pending (409). */
export async function removePendingAccount(
  db: Db,
  actor: Account,
  rawId: string,
): Promise<Account> {
  const id = accountIdFrom(rawId)
  if (id === actor.id.toLowerCase()) throw ownAccount()
  return db.transaction().execute(async (trx) => {
    const target = await findAccountById(trx, id)
    if (!target) throw notFound()
    if (target.status !== 'pending') {
      throw new HttpError(409, 'not_pending', 'Só um cadastro pendente pode ser recusado.')
    }
    await keepAnActiveAdmin(trx, target, 'removed')
    await trx.deleteFrom('accounts').where('id', '=', id).execute()
    return target
  })
}

/** Lifts every sign-in wait of an account (its owner asked an admin). */
export async function unlockAccount(db: Db, limits: SignInLimits, rawId: string): Promise<void> {
  const account = await findAccountById(db, accountIdFrom(rawId))
  if (!account) throw notFound()
  await limits.unlock(account.email)
}
