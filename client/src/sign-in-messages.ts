import type { SessionEndCode } from '../../common/session-end'

/**
 * The pt-BR texts of the login page's later moments: why the last session ended, the second
 * factor's step, the passkey button. Apart from messages.ts so that they load with the login
 * page's own chunk (the cold #/login has a budget), not with every page.
 */
export const signInMessages = {
  /** By the code of the 401 that ended the session (common/session-end.ts), or "Sair". */
  sessionEnd: {
    signed_out: 'Você saiu.',
    session_expired: 'Sua sessão expirou. Entre novamente.',
    session_idle: 'Sua sessão expirou por inatividade. Entre novamente.',
    session_revoked: 'Sua sessão foi encerrada em outro dispositivo ou por um administrador.',
    session_account_disabled: 'Sua conta foi desativada. Fale com um administrador da equipe.',
    session_password_changed: 'Sua senha foi alterada em outra sessão. Entre com a nova senha.',
  } satisfies Record<SessionEndCode | 'signed_out', string> as Record<string, string | undefined>,
  passkey: 'Entrar com chave de acesso',
  sessionEndedAndBack: 'Depois de entrar, você volta para a tela em que estava.',
} as const
