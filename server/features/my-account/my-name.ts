import { recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../http/request-origin'
import { acceptedName } from '../../accounts/account-input'
import { nameColumns } from '../../accounts/name-columns'
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
    const renamed = await trx
      .updateTable('accounts')
      .set({ ...nameColumns(name), updated_at: new Date() })
      .where('id', '=', account.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordAccountEvent(trx, 'name_changed', account.id, origin, {
      from: account.name,
      to: name,
    })
    return renamed
  })
}
