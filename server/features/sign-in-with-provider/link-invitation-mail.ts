import { composeMail } from '../../mail/compose'
import type { MailMessage } from '../../mail/mailer'
import { LINK_INVITATION_HOURS } from './link-invitations'

/**
 * To the person's own address: an admin's link to connect a sign-in provider. It says who asked
 * and for which provider, so an unexpected one is recognised as such, and that ignoring it
 * changes nothing (the link does nothing until the person signs in at the provider).
 */
export function linkInvitationMail(
  to: string,
  /** `provider`: its label (AUTH_<NAME>_LABEL), never its AUTH_PROVIDERS name. */
  invitation: { name: string; admin: string; provider: string; link: string },
): MailMessage {
  // The label always after the word "provedor" (common/provider-labels.ts): "a sua conta
  // Conta Corporativa" or "no Conta Corporativa" read wrong; "no provedor «…»" reads right for
  // any label.
  const provider = `provedor de identidade «${invitation.provider}»`
  return composeMail(to, `Painel: vincule o ${provider} à sua conta`, [
    `Olá, ${invitation.name}.`,
    `${invitation.admin}, da administração do Painel, enviou este link para você vincular a sua conta do ${provider} à sua conta do Painel. Depois de vincular, você passa a entrar no Painel pelo botão "Entrar com ${invitation.provider}".`,
    'Para vincular, abra este link e entre com a sua conta no provedor:',
    invitation.link,
    `O link vale por ${LINK_INVITATION_HOURS} horas e só pode ser usado uma vez. Se você não esperava este e-mail, ignore-o: nada é vinculado sem que você entre no provedor pelo link. Se achar estranho, avise quem administra o Painel.`,
  ])
}
