/**
 * The pt-BR texts of the login page's passkey button. Apart from messages.ts so that they load
 * with the login page's own chunk (the cold #/login has a budget), not with every page. Why a
 * session ended: session-end-messages.ts; the second factor's step: second-factor-messages.ts.
 */
export const signInMessages = {
  passkey: 'Entrar com chave de acesso',
} as const
