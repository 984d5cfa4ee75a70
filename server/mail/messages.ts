import { composeMail } from './compose'
import type { MailMessage } from './mailer'

/** The mails about a person's own sign-in: a reset link, and word that their password changed. */

export function passwordResetMail(
  to: string,
  name: string,
  link: string,
  minutes: number,
): MailMessage {
  return composeMail(to, 'Painel: criar uma nova senha', [
    `Olá, ${name}.`,
    'Recebemos um pedido para criar uma nova senha para a sua conta no Painel. Para escolher a nova senha, abra este link:',
    link,
    `O link vale por ${minutes} minutos e só pode ser usado uma vez. Se você não pediu uma nova senha, ignore este e-mail: a senha atual continua valendo.`,
  ])
}

/** How the password was changed, in the words of the mail. */
const CHANGED_THROUGH = {
  account: 'na tela Minha conta',
  reset: 'com um link de nova senha enviado por e-mail',
} as const

/**
 * Sent after every change of a password the person already had, so that someone who holds a
 * stolen session or mailbox cannot change it unseen: the owner learns of it and can take the
 * account back through recovery.
 */
export function passwordChangedMail(
  to: string,
  name: string,
  change: { through: keyof typeof CHANGED_THROUGH; address: string | null; recoveryUrl: string },
): MailMessage {
  const from = change.address ? `, a partir do endereço ${change.address}` : ''
  return composeMail(to, 'Painel: sua senha foi alterada', [
    `Olá, ${name}.`,
    `A senha da sua conta no Painel foi alterada ${CHANGED_THROUGH[change.through]}${from}. As outras sessões abertas da conta foram encerradas.`,
    'Se foi você, não precisa fazer nada.',
    'Se não foi você, crie uma nova senha agora neste link e avise quem administra o Painel na sua equipe:',
    change.recoveryUrl,
  ])
}
