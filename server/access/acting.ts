import type { FastifyRequest } from 'fastify'
import type { Access } from '../../common/api/roles'
import type { Account } from '../db/schema'
import { requestOrigin, type RequestOrigin } from '../http/request-origin'

/**
 * Who acts, and from where: the audit log records both; and what their role lets them reach
 * (roles/access.ts), which every read and write of another account takes into its query.
 */
export interface Acting {
  actor: Account
  origin: RequestOrigin
  access: Access
}

/** The caller; `access` was read by the permission check every route declaring one runs. */
export const acting = (request: FastifyRequest): Acting => ({
  actor: request.account!,
  origin: requestOrigin(request),
  access: request.access!,
})
