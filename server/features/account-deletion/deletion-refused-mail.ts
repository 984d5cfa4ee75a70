import { composeMail } from '../../mail/compose'
import type { MailMessage } from '../../mail/mailer'

/** The mail telling a person their request for deletion was refused, the admin's reason quoted. */
export function deletionRefusedMail(
  to: string,
  name: string,
  adminName: string,
  reason: string,
): MailMessage {
  return composeMail(to, 'Painel: seu pedido de exclusão da conta foi recusado', [
    `Olá, ${name}.`,
    `${adminName} recusou o seu pedido de exclusão da conta no Painel. A sua conta e os seus dados continuam como estavam.`,
    `Motivo informado: «${reason}»`,
    'Se não concordar, fale com quem administra o Painel na sua equipe. Você pode pedir a exclusão de novo em Minha conta.',
  ])
}
