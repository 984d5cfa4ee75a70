import type { SessionEndCode } from '../../../../common/session-end'

/**
 * The pt-BR texts of why the last session ended, shown by the login page. In their own module
 * so that they come with the notice's chunk (session-end-notice.tsx), loaded only when a
 * session has just ended, not on every cold #/login (it has a budget).
 */
export const sessionEndMessages = {
  /** By the code of the 401 that ended the session (common/session-end.ts), or "Sair". */
  reasons: {
    signed_out: 'Você saiu.',
    session_expired: 'Sua sessão expirou. Entre novamente.',
    session_idle: 'Sua sessão expirou por inatividade. Entre novamente.',
    session_revoked: 'Sua sessão foi encerrada em outro dispositivo ou por um administrador.',
    session_account_disabled: 'Sua conta foi desativada. Fale com um administrador da equipe.',
    session_password_changed: 'A senha desta conta foi alterada. Entre com a nova senha.',
  } satisfies Record<SessionEndCode | 'signed_out', string> as Record<string, string | undefined>,
  /** For a code neither this client knows nor the server explained. */
  fallback: 'Sua sessão terminou. Entre novamente.',
  andBack: 'Depois de entrar, você volta para a tela em que estava.',
} as const
