import type { LightMyRequestResponse } from 'fastify'
import type { ApiFixture } from '../../test/api-fixture'

/**
 * The tests' SCIM client: a provisioning token made through /api/scim-tokens by a signed-in
 * admin, and calls to /scim/v2 as a directory makes them (application/scim+json).
 */

export const USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error'

export type ScimMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ScimClient {
  token: string
  tokenId: string
  call: (
    method: ScimMethod,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>
}

export async function scimClient(
  api: ApiFixture,
  adminToken: string,
  name = 'Entra ID',
): Promise<ScimClient> {
  const made = await api.call('POST', '/api/scim-tokens', adminToken, { name })
  if (made.statusCode !== 201) throw new Error(`no token: ${made.statusCode} ${made.body}`)
  const { id, token } = made.json<{ id: string; token: string }>()
  return {
    token,
    tokenId: id,
    call: (method, path, body, headers = {}) =>
      api.app.inject({
        method,
        url: `/scim/v2${path}`,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/scim+json' }),
          ...headers,
        },
        ...(body !== undefined && {
          payload: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      }),
  }
}

export const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA_URN],
  userName,
  name: { givenName: 'Pessoa', familyName: 'Provisionada' },
  active: true,
  ...extra,
})

export const patch = (...operations: Record<string, unknown>[]) => ({
  schemas: [PATCH_URN],
  Operations: operations,
})
