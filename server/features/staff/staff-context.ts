import type { FastifyBaseLogger } from 'fastify'
import type { RequestOrigin } from '../../audit-log/record-audit'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import type { MailOutbox } from '../../mail/outbox'

/** What every admin action needs: the store, the outbox, and where links in mails start. */
export interface StaffDeps {
  db: Db
  /** Mails are queued in the change's transaction and sent by it (mail/outbox.ts). */
  outbox: MailOutbox
  log: FastifyBaseLogger
  publicUrl: string
}

/** Who acts, and from where: the audit log records both. */
export interface Acting {
  actor: Account
  origin: RequestOrigin
}
