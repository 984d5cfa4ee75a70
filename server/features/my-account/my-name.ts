import { recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../http/request-origin'
import { acceptedName } from '../../accounts/account-input'
import { nameColumns } from '../../db/name-columns'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'

/**
 * PATCH /me {name}: the person corrects their own name. Audited with the name before and after
 * (an unchanged name changes nothing and records nothing).
 */
export async function renameMe(
  db: Db,
  account: Account,
  raw: string,
  origin: RequestOrigin,
): Promise<Account> {
  const name = acceptedName(raw)
  if (name === account.name) return account
  return db.transaction().execute(async (trx) => {
    // The name as it is now, the row locked: an admin may have renamed the person since the
    // session read it, and the log records changes only.
    const current = await trx
      .updateTable('accounts')
      .set((set) => ({ name: set.ref('name') }))
      .where('id', '=', account.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    if (current.name === name) return current
    const renamed = await trx
      .updateTable('accounts')
      .set({ ...nameColumns(name), updated_at: new Date() })
      .where('id', '=', account.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordAccountEvent(trx, 'name_changed', account.id, origin, {
      from: current.name,
      to: name,
    })
    return renamed
  })
}
