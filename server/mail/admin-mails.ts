import { composeMail as mail } from './compose'
import type { MailMessage } from './mailer'

/** The mails staff administration sends (compose.ts: pt-BR, plain text and HTML). */

export function approvedMail(to: string, name: string, loginUrl: string): MailMessage {
  return mail(to, 'Painel: seu cadastro foi aprovado', [
    `Olá, ${name}.`,
    'Um administrador aprovou o seu cadastro no Painel. Você já pode entrar com o seu e-mail e a senha que escolheu:',
    loginUrl,
  ])
}

export function refusedMail(to: string, name: string, reason: string | undefined): MailMessage {
  return mail(to, 'Painel: seu cadastro não foi aprovado', [
    `Olá, ${name}.`,
    'Um administrador recusou o seu pedido de cadastro no Painel, e o pedido foi removido.',
    ...(reason ? [`Motivo informado: ${reason}`] : []),
    'Se acha que foi um engano, fale com quem administra o Painel na sua equipe.',
  ])
}

export function invitedMail(
  to: string,
  name: string,
  invitedBy: string,
  link: string,
  days: number,
): MailMessage {
  return mail(to, 'Painel: você recebeu um convite', [
    `Olá, ${name}.`,
    `${invitedBy} convidou você para o Painel. Para entrar, crie a sua senha neste link:`,
    link,
    `O link vale por ${days} dias e só pode ser usado uma vez.`,
  ])
}

/**
 * An invitation with PASSWORD_SIGN_IN=off: no password to set; the person signs in with the
 * organisation's account (`buttons`: the login page's words, "Entrar com Google").
 */
export function invitedByProviderMail(
  to: string,
  name: string,
  invitedBy: string,
  loginUrl: string,
  buttons: readonly string[],
): MailMessage {
  const which = buttons.map((words) => `«${words}»`).join(' ou ')
  return mail(to, 'Painel: você recebeu um convite', [
    `Olá, ${name}.`,
    `${invitedBy} convidou você para o Painel. Para entrar, abra a página de entrada e use o botão ${which} com a sua conta da organização deste e-mail (${to}):`,
    loginUrl,
    'Não é preciso criar senha.',
  ])
}

export function adminResetMail(
  to: string,
  name: string,
  link: string,
  minutes: number,
): MailMessage {
  return mail(to, 'Painel: criar uma nova senha', [
    `Olá, ${name}.`,
    'Um administrador pediu que você crie uma nova senha para a sua conta no Painel. Abra este link:',
    link,
    `O link vale por ${minutes} minutos e só pode ser usado uma vez. Até lá, a senha atual continua valendo.`,
  ])
}

export function newRegistrationsMail(
  to: string,
  name: string,
  people: readonly { name: string; email: string }[],
  equipeUrl: string,
): MailMessage {
  const count = people.length
  return mail(
    to,
    count === 1
      ? 'Painel: um novo cadastro aguarda aprovação'
      : `Painel: ${count} novos cadastros aguardam aprovação`,
    [
      `Olá, ${name}.`,
      count === 1
        ? 'Um novo cadastro aguarda a sua aprovação:'
        : `${count} novos cadastros aguardam a sua aprovação:`,
      people.map((person) => `- ${person.name} <${person.email}>`).join('\n'),
      'Para aprovar ou recusar, abra a tela Equipe:',
      equipeUrl,
    ],
  )
}

/**
 * `recoveryUrl`: the link to a new password, for someone who signs in with one; null for someone
 * who signs in at a provider (no password of their own: nothing to make new here).
 */
export function secondFactorRemovedMail(
  to: string,
  name: string,
  removedBy: string,
  recoveryUrl: string | null,
): MailMessage {
  return mail(to, 'Painel: sua verificação em duas etapas foi desativada', [
    `Olá, ${name}.`,
    `${removedBy} desativou a verificação em duas etapas da sua conta no Painel (aplicativo autenticador, códigos de recuperação e chaves de acesso), por exemplo porque você perdeu o celular. ${recoveryUrl ? 'Agora a sua senha basta para entrar.' : 'Agora basta entrar pelo provedor de identidade.'}`,
    'Para voltar a proteger a conta, entre e ative a verificação de novo na tela Minha conta.',
    ...(recoveryUrl
      ? [
          'Se você não pediu isso, crie uma nova senha agora neste link e avise quem administra o Painel na sua equipe:',
          recoveryUrl,
        ]
      : ['Se você não pediu isso, avise quem administra o Painel na sua equipe.']),
  ])
}
