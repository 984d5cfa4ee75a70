import type {
  CurrentSession,
  MfaStatus,
  PasskeyAddBody,
  PasskeyAnswer,
  PasskeyList,
  PasskeyRenameBody,
  PasswordBody,
  RecoveryCodes,
  SessionList,
  TotpConfirmBody,
  TotpSetup,
} from '../../../../common/api/me'
import type { UserAnswer } from '../../../../common/api/account'
import type { CreationOptions } from '../../../../common/api/webauthn'
import { apiRequest } from '../../api/api-client'

/**
 * The signed-in user's own account (docs/architecture.md, "Fixed contracts", /api/me): sessions, the
 * authenticator app, recovery codes, passkeys. Types only from common/api.
 */

export type { CurrentSession, MfaStatus, SessionList }
export type { Passkey, SessionItem } from '../../../../common/api/me'

const idPath = (id: string) => encodeURIComponent(id)

/** One's own name, corrected (PATCH /api/me). */
export const renameMe = (name: string) =>
  apiRequest<UserAnswer>('me', { method: 'PATCH', body: { name } })

export const fetchCurrentSession = () => apiRequest<CurrentSession>('me/session')
export const renewSession = () => apiRequest<CurrentSession>('me/session/renew', { method: 'POST' })

export const listSessions = (signal?: AbortSignal) =>
  apiRequest<SessionList>('me/sessions', signal ? { signal } : {})
export const endSession = (id: string) =>
  apiRequest<void>(`me/sessions/${idPath(id)}`, { method: 'DELETE' })
export const endOtherSessions = () => apiRequest<void>('me/sessions', { method: 'DELETE' })

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
