import type {
  MfaStatus,
  PasskeyAddBody,
  PasskeyAnswer,
  PasskeyList,
  PasskeyRenameBody,
  PasswordBody,
  RecoveryCodes,
  TotpConfirmBody,
  TotpSetup,
} from '../../../common/api/me'
import type { CreationOptions } from '../../../common/api/webauthn'
import { apiRequest } from '../session/api-client'

/**
 * The signed-in user's second factors (/api/me, common/api/me.ts): the authenticator app,
 * recovery codes, passkeys. Minha conta and the setup MFA_REQUIRED asks for both use them.
 */

export type { MfaStatus }
export type { Passkey } from '../../../common/api/me'

const idPath = (id: string) => encodeURIComponent(id)

export const fetchMfaStatus = (signal?: AbortSignal) =>
  apiRequest<MfaStatus>('me/mfa', signal ? { signal } : {})
export const startTotp = () => apiRequest<TotpSetup>('me/totp', { method: 'POST' })
export const confirmTotp = (code: string) =>
  apiRequest<RecoveryCodes>('me/totp/confirm', {
    method: 'POST',
    body: { code } satisfies TotpConfirmBody,
  })
export const turnOffTotp = (password: string) =>
  apiRequest<void>('me/totp', { method: 'DELETE', body: { password } satisfies PasswordBody })
export const regenerateRecoveryCodes = (password: string) =>
  apiRequest<RecoveryCodes>('me/recovery-codes', {
    method: 'POST',
    body: { password } satisfies PasswordBody,
  })

export const listPasskeys = (signal?: AbortSignal) =>
  apiRequest<PasskeyList>('me/passkeys', signal ? { signal } : {})
export const passkeyCreationOptions = () =>
  apiRequest<CreationOptions>('me/passkeys/options', { method: 'POST' })
export const addPasskey = (body: PasskeyAddBody) =>
  apiRequest<PasskeyAnswer>('me/passkeys', { method: 'POST', body })
export const renamePasskey = (id: string, name: string) =>
  apiRequest<PasskeyAnswer>(`me/passkeys/${idPath(id)}`, {
    method: 'PATCH',
    body: { name } satisfies PasskeyRenameBody,
  })
export const removePasskey = (id: string) =>
  apiRequest<void>(`me/passkeys/${idPath(id)}`, { method: 'DELETE' })
