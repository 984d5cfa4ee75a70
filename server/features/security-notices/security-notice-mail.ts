import type { AuditDetails } from '../../../common/api/audit'
import { auditRoleNames } from '../../../common/audit-details'
import type { ApiContext } from '../../api/api-context'
import type { AuditEventsTable } from '../../db/schema'
import { browserName } from '../../../common/browser-name'
import { composeMail } from '../../mail/compose'
import type { MailMessage } from '../../mail/mailer'
import type { OutboxRow } from '../../mail/outbox'
import {
  SECURITY_NOTICE_MAIL,
  securityNoticeKind,
  type SecurityNoticeKind,
} from '../../security-notices/security-notice-kinds'

/** Gives the outbox's sender the composer of security notices (queued by audit-log/record-audit.ts). */
export function composeSecurityNotices(context: ApiContext): void {
  context.outbox.prepare(SECURITY_NOTICE_MAIL, (row) => composeSecurityNotice(context, row))
}

/**
 * The notice of the event the row names, from the audit log as it is now: none (null, the row
 * goes) when the event is gone (pruned, or the account anonymised since).
 */
async function composeSecurityNotice(
  { db, config }: Pick<ApiContext, 'db' | 'config'>,
  row: OutboxRow,
): Promise<MailMessage | null> {
  const { event: id } = JSON.parse(row.request ?? '{}') as { event?: unknown }
  if (typeof id !== 'string') return null
  const event = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!event || event.account_id === null) return null
  const account = await db
    .selectFrom('accounts')
    .select(['name', 'email'])
    .where('id', '=', event.account_id)
    .executeTakeFirst()
  if (!account) return null
  return securityNoticeMail(row.recipient, account.name, event, config.publicUrl)
}

/** When, in Brasília's time: the server does not know the reader's zone, and most staff are there. */
const WHEN = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'short',
})

const quoted = (name: unknown) => (typeof name === 'string' && name !== '' ? ` «${name}»` : '')

/** The subject and the sentence of what happened, per kind. */
function whatHappened(
  kind: SecurityNoticeKind,
  details: AuditDetails,
): { subject: string; sentence: string } {
  switch (kind) {
    case 'new_browser':
      return {
        subject: 'Painel: entrada de um navegador novo',
        sentence:
          'Houve uma entrada na sua conta do Painel de um navegador que nunca tinha entrado nela',
      }
    case 'mfa_enabled':
      return {
        subject: 'Painel: segundo fator ativado',
        sentence: 'A verificação em duas etapas (segundo fator) foi ativada na sua conta do Painel',
      }
    case 'mfa_disabled':
      return {
        subject: 'Painel: segundo fator desativado',
        sentence:
          'A verificação em duas etapas (segundo fator) foi desativada na sua conta do Painel: agora basta a senha para entrar',
      }
    case 'recovery_codes_regenerated':
      return {
        subject: 'Painel: novos códigos de recuperação',
        sentence:
          'Novos códigos de recuperação foram gerados para a sua conta do Painel; os anteriores não valem mais',
      }
    case 'recovery_code_used': {
      const left = typeof details.left === 'number' ? details.left : undefined
      const remaining =
        left === undefined
          ? ''
          : left === 0
            ? '. Não resta nenhum código: gere novos em Minha conta'
            : left === 1
              ? '. Resta 1 código'
              : `. Restam ${left} códigos`
      return {
        subject: 'Painel: código de recuperação usado',
        sentence:
          details.during === 'confirmation'
            ? `Um código de recuperação foi usado para confirmar uma alteração na sua conta do Painel, em Minha conta${remaining}`
            : `Um código de recuperação foi usado para entrar na sua conta do Painel${remaining}`,
      }
    }
    case 'passkey_added':
      return {
        subject: 'Painel: chave de acesso adicionada',
        sentence: `A chave de acesso${quoted(details.name)} foi adicionada à sua conta do Painel`,
      }
    case 'passkey_removed':
      return {
        subject: 'Painel: chave de acesso removida',
        sentence: `A chave de acesso${quoted(details.name)} foi removida da sua conta do Painel`,
      }
    case 'locked':
      return {
        subject: 'Painel: conta bloqueada por tentativas erradas',
        sentence:
          'A sua conta do Painel foi bloqueada por um tempo depois de várias tentativas de entrar com a senha ou o código errados',
      }
    case 'role_changed': {
      // The roles' names when recorded (any role); else the old admin/staff of older events.
      const named = typeof details.from_role === 'string' && typeof details.to_role === 'string'
      const from = named ? details.from_role : auditRoleNames[String(details.from)]
      const to = named ? details.to_role : auditRoleNames[String(details.to)]
      return {
        subject: 'Painel: seu papel foi alterado',
        sentence:
          from && to
            ? `O seu papel no Painel foi alterado de ${from} para ${to}`
            : 'O seu papel no Painel foi alterado',
      }
    }
    case 'team_changed': {
      // A team's name when recorded; none is "nenhum time".
      const teamOf = (name: unknown) => (typeof name === 'string' ? `«${name}»` : 'nenhum time')
      return {
        subject: 'Painel: seu time foi alterado',
        sentence: `O seu time no Painel foi alterado de ${teamOf(details.from)} para ${teamOf(details.to)}`,
      }
    }
    case 'provider_linked':
      return {
        subject: 'Painel: provedor de identidade vinculado',
        sentence: `O provedor de identidade${quoted(details.provider)} foi vinculado à sua conta do Painel: ele agora serve para entrar`,
      }
    case 'provider_unlinked':
      return {
        subject: 'Painel: provedor de identidade desvinculado',
        sentence: `O provedor de identidade${quoted(details.provider)} foi desvinculado da sua conta do Painel`,
      }
  }
}

/** How a provider was linked at a sign-in through it (details.by of provider_linked). */
const PROVIDER_LINK_WAYS: Readonly<Record<string, string>> = {
  // The person made it, at the provider, through the link an admin mailed them.
  admin_link:
    'O vínculo foi feito com o link que a administração do Painel enviou ao seu e-mail, ao entrar no provedor por ele.',
  verified_email:
    'O vínculo foi feito ao entrar pelo provedor, que confirmou que este endereço de e-mail é seu.',
  password:
    'O vínculo foi feito ao entrar pelo provedor e confirmar a senha desta conta do Painel.',
  new_account: 'A conta foi criada ao entrar pelo provedor pela primeira vez.',
}

/** Who did it, in the mail's words: the person, an admin (named), a provider, or the panel. */
function whoDidIt(kind: SecurityNoticeKind, event: AuditEventsTable, details: AuditDetails) {
  if (kind === 'locked') return 'O bloqueio foi automático.'
  if (
    typeof details.provider === 'string' &&
    (kind === 'role_changed' || kind === 'team_changed')
  ) {
    return `A alteração veio do provedor de identidade «${details.provider}», ao entrar por ele.`
  }
  if (kind === 'provider_linked') {
    // Made at a sign-in through the provider, not in Minha conta: say which way it was made.
    const how = PROVIDER_LINK_WAYS[String(details.by)]
    if (how) return how
  }
  if (event.actor_id !== null && event.actor_id !== event.account_id) {
    const admin = [event.actor_name, event.actor_email && `(${event.actor_email})`]
      .filter(Boolean)
      .join(' ')
    return `Quem fez a alteração foi ${admin}, da administração do Painel.`
  }
  if (kind === 'new_browser' || kind === 'recovery_code_used') return undefined
  return 'A alteração foi feita na sua própria sessão, em Minha conta.'
}

/** The mail: what happened, when, from where and with which browser, who did it, what to do. */
export function securityNoticeMail(
  to: string,
  name: string,
  event: AuditEventsTable,
  publicUrl: string,
): MailMessage | null {
  const details = JSON.parse(event.details) as AuditDetails
  const kind = securityNoticeKind(event.type as never, details)
  if (kind === undefined) return null
  const { subject, sentence } = whatHappened(kind, details)
  const where = [
    `em ${WHEN.format(new Date(event.at))} (horário de Brasília)`,
    event.ip && `a partir do endereço ${event.ip}`,
    event.user_agent && `com ${browserName(event.user_agent)}`,
  ].filter(Boolean)
  const byAdmin = event.actor_id !== null && event.actor_id !== event.account_id
  const myAccount = `${publicUrl}/#/perfil`
  const paragraphs = [
    `Olá, ${name}.`,
    `${sentence}, ${where.join(', ')}.`,
    whoDidIt(kind, event, details),
    byAdmin
      ? 'Se não esperava por isso, fale com quem administra o Painel na sua equipe.'
      : 'Se foi você, não precisa fazer nada.',
    'Não foi você? Entre no Painel e, em Minha conta, encerre as outras sessões abertas:',
    myAccount,
    'Depois crie uma nova senha por este link e avise quem administra o Painel na sua equipe:',
    `${publicUrl}/#/recuperar-senha`,
    kind === 'new_browser'
      ? 'Você pode desligar este aviso de navegador novo em Minha conta, em "Avisos de segurança". Os outros avisos de segurança são sempre enviados.'
      : undefined,
  ].filter((paragraph): paragraph is string => typeof paragraph === 'string')
  return composeMail(to, subject, paragraphs)
}
