import type {
  ScimTokenBody,
  ScimTokenCreated,
  ScimTokenList,
} from '../../../../common/api/scim-tokens'
import { apiRequest } from '../../session/api-client'

/** The provisioning tokens (common/api/scim-tokens.ts). */

export const listScimTokens = (signal: AbortSignal) =>
  apiRequest<ScimTokenList>('scim-tokens', { signal })

export const createScimToken = (body: ScimTokenBody) =>
  apiRequest<ScimTokenCreated>('scim-tokens', { method: 'POST', body })

export const revokeScimToken = (id: string) =>
  apiRequest<void>(`scim-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' })
