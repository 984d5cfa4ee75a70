import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { PERMISSIONS, type OperationAccess, type Permission } from '../../common/permissions'
import type { ApiContext } from '../api/api-context'
import { apiError } from '../http/errors'
import { allows, loadAccess } from '../roles/access'
import { requireSession } from './authenticate'
import type { Access } from '../../common/api/roles'

declare module 'fastify' {
  interface FastifySchema {
    /**
     * What the operation needs (common/permissions.ts): a permission, `signed-in` (anyone with a
     * session: their own account, or what every signed-in screen reads) or `public`. Shown as is on the operation in the OpenAPI
     * document; a route without one is refused at start (guarded-routes.ts).
     */
    'x-permission'?: OperationAccess
    /**
     * Where the body chooses what the operation does (PATCH /api/staff/{id}, POST
     * /api/staff/bulk): what each act needs beyond `x-permission`, checked by the use case from
     * the same map (common/staff-permissions.ts).
     */
    'x-action-permissions'?: Readonly<Record<string, Permission>>
  }
  interface FastifyRequest {
    /** The caller's role, scope and team, read by the permission check (roles/access.ts). */
    access?: Access
  }
}

const ACCESS_VALUES: ReadonlySet<string> = new Set<string>([...PERMISSIONS, 'signed-in', 'public'])

/** The route's declaration, or an error naming the route: deny by default, at start. */
export function declaredAccess(
  route: Pick<RouteOptions, 'method' | 'url' | 'schema'>,
): OperationAccess {
  const declared = route.schema?.['x-permission']
  if (typeof declared !== 'string' || !ACCESS_VALUES.has(declared)) {
    throw new Error(
      `${String(route.method)} ${route.url} declares no access: give its schema an 'x-permission' (a permission of common/permissions.ts, 'signed-in' or 'public')`,
    )
  }
  return declared
}

/** The caller's access, read once per request. */
export async function accessOf(
  context: Pick<ApiContext, 'db'>,
  request: FastifyRequest,
): Promise<Access> {
  request.access ??= await loadAccess(context.db, request.account!)
  return request.access
}

export const missingPermission = () => apiError(403, 'permission_missing', 'forbidden')

/** Refuses the call (403 forbidden) unless the caller holds the permission. */
export async function requirePermission(
  context: Pick<ApiContext, 'db'>,
  request: FastifyRequest,
  permission: Permission,
): Promise<Access> {
  const access = await accessOf(context, request)
  if (!allows(access, permission)) throw missingPermission()
  return access
}

/**
 * The onRequest hook an operation's declaration asks for, after its plugin's guards: `signed-in` and
 * a permission need a session (the plugin's signedIn guard has usually checked it already), a
 * permission also the caller's role to hold it. `public` asks nothing more.
 */
export function accessHook(
  context: Pick<ApiContext, 'db' | 'now' | 'config'>,
  declared: OperationAccess,
): ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined {
  if (declared === 'public') return undefined
  const session = requireSession(context)
  return async (request, reply) => {
    if (!request.account) await session(request, reply)
    if (declared !== 'signed-in') await requirePermission(context, request, declared)
  }
}
