import type { FastifyRequest } from 'fastify'
import type { Guard } from '../../access/guarded-routes'
import { BEARER } from '../../accounts/tokens'
import { ScimError } from './scim-error'
import { findScimToken } from './scim-token-store'

declare module 'fastify' {
  interface FastifyRequest {
    /** The provisioning token a /scim/v2 call came with (its id and name), set by scimToken. */
    scimToken?: { id: string; name: string }
  }
}

/**
 * The guard of /scim/v2: `Authorization: Bearer` of a provisioning token (scim-token-store.ts).
 * A session's token is not one (it is looked up in scim_tokens only), so a signed-in person's
 * token never opens /scim/v2; and nothing else accepts a provisioning token, since every other
 * guard looks in `sessions`. onRequest, before the body is read: without a token, a caller
 * learns nothing of what a route takes.
 */
export const scimToken: Guard = {
  name: 'provisioning token',
  hook: (context) => async (request: FastifyRequest) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1]
    const found = token ? await findScimToken(context.db, token, context.now()) : undefined
    if (!found)
      throw new ScimError(
        401,
        undefined,
        'A valid provisioning token is needed (Authorization: Bearer …): make one in Painel, Provisionamento.',
      )
    request.scimToken = found
  },
  // What a directory reads is the people and teams themselves: no cache on the way keeps it.
  noStore: true,
}

/** The token as the audit log names who acted: its name (the account fields hold its id). */
export const tokenParty = (request: FastifyRequest) => ({
  id: request.scimToken!.id,
  name: request.scimToken!.name,
  email: '',
})
