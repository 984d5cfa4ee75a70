/**
 * Why a session stopped working: the `error.code` of the 401 an authenticated call answers once
 * its session has ended, so the login page can say which (in pt-BR) instead of a bare "sign in
 * again". A plain list without TypeBox, so the client may import it at run time.
 *
 * - `session_expired`: its absolute lifetime (SESSION_TTL) ran out.
 * - `session_idle`: nothing was done with it for SESSION_IDLE_TIMEOUT.
 * - `session_revoked`: ended from elsewhere ("Minha conta", or an admin's "encerrar sessões").
 * - `session_account_disabled`: an admin disabled the account.
 * - `session_password_changed`: the password was changed or reset elsewhere.
 *
 * A token the server never issued, or one of a session ended by "Sair", answers the older
 * `unauthenticated`.
 */
export const SESSION_END_CODES = [
  'session_expired',
  'session_idle',
  'session_revoked',
  'session_account_disabled',
  'session_password_changed',
] as const
export type SessionEndCode = (typeof SESSION_END_CODES)[number]

export function isSessionEndCode(code: string): code is SessionEndCode {
  return (SESSION_END_CODES as readonly string[]).includes(code)
}
