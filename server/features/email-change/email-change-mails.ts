import { composeMail } from '../../mail/compose'
import type { MailMessage } from '../../mail/mailer'

/** The mails of a change of e-mail (issue 30): to the new address, and to the old one. */

export const EMAIL_CHANGE_HOURS = 24

/** To the new address, free: the single-use link that makes it the account's e-mail. */
export function confirmNewEmailMail(to: string, name: string, link: string): MailMessage {
  return composeMail(to, 'Painel: confirme o seu novo e-mail', [
    `Olá, ${name}.`,
    'Foi pedido que este endereço passe a ser o e-mail da sua conta no Painel. Para confirmar, abra este link:',
    link,
    `O link vale por ${EMAIL_CHANGE_HOURS} horas e só pode ser usado uma vez. Até a confirmação, o e-mail anterior continua valendo para entrar. Se você não pediu essa troca, ignore este e-mail: nada muda.`,
  ])
}

/**
 * To the new address when it already has an account: no link, and the requester is not told
 * (their answer is the same 202), so the change reveals nothing about who has an account.
 */
export function emailTakenMail(to: string): MailMessage {
  return composeMail(to, 'Painel: confirme o seu novo e-mail', [
    'Olá.',
    'Foi pedido que este endereço passe a ser o e-mail de uma conta no Painel, mas ele já é o e-mail de outra conta, a sua. Por isso nada foi trocado, e a sua conta continua como estava.',
    'Se foi você que pediu, entre no Painel com este e-mail ou use outro endereço na troca. Se não foi, ignore este e-mail.',
  ])
}

/** To the old address, at once: the change asked for, by whom, and the link that cancels it. */
export function emailChangeAskedMail(
  to: string,
  name: string,
  change: {
    newEmail: string
    byAdmin: string | null
    cancelLink: string
    /** The person signs in with a password of their own (else at a provider: no new one to make). */
    password: boolean
  },
): MailMessage {
  const who = change.byAdmin
    ? `por ${change.byAdmin}, da administração do Painel`
    : 'na sua própria sessão, em Minha conta'
  return composeMail(to, 'Painel: pedido de troca do seu e-mail', [
    `Olá, ${name}.`,
    `Foi pedido, ${who}, que o e-mail da sua conta no Painel passe a ser ${change.newEmail}. A troca só acontece quando esse endereço confirmar; até lá, este e-mail continua valendo para entrar.`,
    'Se não foi você nem alguém da administração do Painel, cancele a troca por este link:',
    change.cancelLink,
    `O link de cancelamento vale enquanto a troca não for confirmada (no máximo ${EMAIL_CHANGE_HOURS} horas). Depois, ${change.password ? 'crie uma nova senha em "Esqueci minha senha" e avise' : 'avise'} quem administra o Painel.`,
  ])
}
