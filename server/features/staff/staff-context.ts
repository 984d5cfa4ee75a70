import type { Account } from '../../db/schema'
import type { RequestOrigin } from '../../http/request-origin'

/** Who acts, and from where: the audit log records both. */
export interface Acting {
  actor: Account
  origin: RequestOrigin
}
