/**
 * The pt-BR texts of the login page's passkey button. Apart from words/messages.ts (whose `login`
 * words are the page's: there, in the common chunk, they cost the cold #/login fewer bytes than
 * in the page's own chunk) so that they load with the login page's own chunk, not with every
 * page. Why a session ended: session-end-messages.ts; the second step: mfa-step-messages.ts.
 */
export const signInMessages = {
  passkey: 'Entrar com chave de acesso',
  /** PASSWORD_SIGN_IN=off: the first admin's way to the password form. */
  passwordToggle: 'Entrar com senha (administrador)',
  /** After a provider that did not vouch for the e-mail: the form links it (provider-return.ts). */
  linkSubmit: 'Entrar e vincular',
  linkSending: 'Vinculando…',
  linkCancel: 'Entrar sem vincular',
} as const
