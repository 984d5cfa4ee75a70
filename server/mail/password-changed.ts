import type { Config } from '../config/config'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import type { RequestOrigin } from '../http/request-origin'
import { passwordChangedMail } from './messages'
import type { MailOutbox } from './outbox'

/** Queued in the change's transaction: the owner is told of every change that commits. */
export async function queuePasswordChangedMail(
  { outbox, config }: { outbox: MailOutbox; config: Pick<Config, 'publicUrl'> },
  trx: Db,
  account: Account,
  through: 'account' | 'reset',
  origin: RequestOrigin | undefined,
): Promise<void> {
  const recoveryUrl = `${config.publicUrl}/#/recuperar-senha`
  const mail = passwordChangedMail(account.email, account.name, {
    through,
    address: origin?.ip ?? null,
    recoveryUrl,
  })
  await outbox.queue(trx, 'password_changed', mail)
}
