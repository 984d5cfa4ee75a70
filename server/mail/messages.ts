import type { MailMessage } from './mailer'

/** The e-mails the panel sends, in pt-BR. */

export function passwordResetMail(
  to: string,
  name: string,
  link: string,
  minutes: number,
): MailMessage {
  return {
    to,
    subject: 'Painel: criar uma nova senha',
    text: [
      `Olá, ${name}.`,
      '',
      'Recebemos um pedido para criar uma nova senha para a sua conta no Painel.',
      'Para escolher a nova senha, abra este link:',
      '',
      link,
      '',
      `O link vale por ${minutes} minutos e só pode ser usado uma vez.`,
      'Se você não pediu uma nova senha, ignore este e-mail: a senha atual continua valendo.',
    ].join('\n'),
  }
}
