import type { FastifyBaseLogger } from 'fastify'
import type { RequestOrigin } from '../audit/record-audit'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import type { Mailer, MailMessage } from '../mail/mailer'

/** What every admin action needs: the store, the mailer, and where links in mails start. */
export interface StaffDeps {
  db: Db
  mailer: Mailer
  log: FastifyBaseLogger
  publicUrl: string
}

/** Who acts, and from where: the audit log records both. */
export interface Acting {
  actor: Account
  origin: RequestOrigin
}

/**
 * Sends after the change is committed and without holding the answer up: a slow or failing mail
 * server must not undo an approval, and it is logged for someone to act on.
 */
export function sendLater(deps: StaffDeps, message: MailMessage, what: string): void {
  deps.mailer.send(message).then(
    () => deps.log.info({ mail: what }, 'mail sent'),
    (error: unknown) => deps.log.error({ err: error, mail: what }, 'mail failed'),
  )
}
