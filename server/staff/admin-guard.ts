import type { Account } from '../db/schema'
import type { Db } from '../db/database'
import { apiError } from '../http/errors'

/**
 * The two refusals every admin action shares. Your own account is changed in "Minha conta", not
 * here (400 own_account), and no change may leave the panel without an active admin
 * (409 last_admin). Ids are compared in lower case: DESIGN.md says UUIDs compare
 * case-insensitively, and the database stores them lower-case.
 */
export function refuseOwnAccount(actor: Account, targetId: string): void {
  if (targetId.toLowerCase() === actor.id.toLowerCase()) throw apiError(400, 'own_account')
}

/** Run inside the change's transaction, after the change: throws (and so undoes it) if no active admin is left. */
export async function requireAnActiveAdmin(trx: Db): Promise<void> {
  const row = await trx
    .selectFrom('accounts')
    .select('id')
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .limit(1)
    .executeTakeFirst()
  if (!row) throw apiError(409, 'last_admin')
}

/** The account an admin acts on, read in the transaction; 404 when there is none. */
export async function targetAccount(trx: Db, id: string): Promise<Account> {
  const account = await trx
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst()
  if (!account) throw apiError(404, 'account_not_found', 'not_found')
  return account
}
