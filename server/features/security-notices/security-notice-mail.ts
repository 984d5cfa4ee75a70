import type { AuditDetails } from '../../../common/api/audit'
import { auditRoleNames } from '../../../common/audit-details'
import { browserName } from '../../../common/browser-name'
import { providerLabels, type ProviderLabels } from '../../../common/provider-labels'
import { signsInWithPassword } from '../../accounts/password-sign-in-policy'
import type { ApiContext } from '../../api/api-context'
import type { AccountStatus, AuditEventsTable } from '../../db/schema'
import { brasiliaDateTime } from '../../mail/brasilia-time'
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
    .selectAll()
    .where('id', '=', event.account_id)
    .executeTakeFirst()
  if (!account) return null
  const links = await db
    .selectFrom('provider_links')
    .select('provider')
    .where('account_id', '=', account.id)
    .orderBy('linked_at')
    .execute()
  return securityNoticeMail(row.recipient, event, config.publicUrl, {
    name: account.name,
    status: account.status,
    password: signsInWithPassword(config, account),
    providers: links.map((link) => link.provider),
    labels: providerLabels(config.authProviders),
  })
}

/** The person the notice goes to, as the advice must fit them. */
export interface NoticeReader {
  name: string
  status: AccountStatus
  /** Signs in with a password of their own (accounts/password-sign-in-policy.ts). */
  password: boolean
  /** The providers linked to the account (their AUTH_PROVIDERS names), oldest first. */
  providers: readonly string[]
  labels: ProviderLabels
}

const quoted = (name: unknown) => (typeof name === 'string' && name !== '' ? ` «${name}»` : '')
/** A provider as the mail says it: by its label, after the word "provedor" (common/provider-labels.ts). */
const providerNamed = (name: unknown, labels: ProviderLabels) =>
  quoted(typeof name === 'string' && name !== '' ? labels(name) : undefined)

/** The subject and the sentence of what happened, per kind. */
function whatHappened(
  kind: SecurityNoticeKind,
  details: AuditDetails,
  { labels, password }: Pick<NoticeReader, 'labels' | 'password'>,
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
        sentence: `A verificação em duas etapas (segundo fator) foi desativada na sua conta do Painel: agora basta ${password ? 'a senha' : 'o provedor de identidade'} para entrar`,
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
        sentence: `O provedor de identidade${providerNamed(details.provider, labels)} foi vinculado à sua conta do Painel: ele agora serve para entrar`,
      }
    case 'provider_unlinked':
      return {
        subject: 'Painel: provedor de identidade desvinculado',
        sentence: `O provedor de identidade${providerNamed(details.provider, labels)} foi desvinculado da sua conta do Painel`,
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

/** Who made the change: the person, an admin, a provider's claims at a sign-in, or nobody known. */
type Author = 'self' | 'admin' | 'provider' | 'unknown'

function authorOf(
  kind: SecurityNoticeKind,
  event: AuditEventsTable,
  details: AuditDetails,
): Author {
  if (kind === 'locked') return 'unknown'
  if (event.actor_id !== null && event.actor_id !== event.account_id) return 'admin'
  const byClaims = kind === 'role_changed' || kind === 'team_changed'
  if (byClaims && typeof details.provider === 'string') return 'provider'
  // A sign-in (a new browser, a recovery code) says who signs in, not who that is.
  if (kind === 'new_browser' || kind === 'recovery_code_used') return 'unknown'
  return 'self'
}

/** Who did it, in the mail's words: the person, an admin (named), a provider, or the panel. */
function whoDidIt(
  kind: SecurityNoticeKind,
  event: AuditEventsTable,
  details: AuditDetails,
  labels: ProviderLabels,
) {
  if (kind === 'locked') return 'O bloqueio foi automático.'
  if (
    typeof details.provider === 'string' &&
    (kind === 'role_changed' || kind === 'team_changed')
  ) {
    return `A alteração veio do provedor de identidade${providerNamed(details.provider, labels)}, ao entrar por ele.`
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

const ADMINS = 'quem administra o Painel na sua equipe'

/**
 * What to do, fitted to who made the change and to the person: nothing asks someone to sign in
 * who cannot yet (a pending registration), nor to make a new password someone who has none (a
 * provider's account, PASSWORD_SIGN_IN=off: their password is the provider's), nor to undo
 * what an admin or the provider's data did (that is the admins' to answer for).
 */
function advice(
  kind: SecurityNoticeKind,
  author: Author,
  reader: NoticeReader,
  details: AuditDetails,
  publicUrl: string,
): string[] {
  if (reader.status === 'pending') {
    return [
      'O seu cadastro ainda aguarda a aprovação de um administrador: você poderá entrar quando ele for aprovado.',
      `Se não foi você que pediu este cadastro, avise ${ADMINS}.`,
    ]
  }
  if (author === 'admin' || author === 'provider') {
    return [`Se não esperava por isso, fale com ${ADMINS}.`]
  }
  const ifYou =
    kind === 'locked'
      ? 'Se foi você, espere alguns minutos e tente de novo.'
      : 'Se foi você, não precisa fazer nada.'
  const endSessions =
    kind === 'locked'
      ? []
      : [
          'Não foi você? Entre no Painel e, em Minha conta, encerre as outras sessões abertas:',
          `${publicUrl}/#/perfil`,
        ]
  const then = kind === 'locked' ? 'Não foi você? Então' : 'Depois'
  if (reader.password) {
    return [
      ifYou,
      ...endSessions,
      `${then} crie uma nova senha por este link e avise ${ADMINS}:`,
      `${publicUrl}/#/recuperar-senha`,
    ]
  }
  // No password of their own: they sign in at a provider, whose password is the one to change.
  const names = typeof details.provider === 'string' ? [details.provider] : reader.providers
  const labels = [...new Set(names.map((name) => `«${reader.labels(name)}»`))]
  const where =
    labels.length === 0
      ? 'no provedor de identidade com que você entra'
      : labels.length === 1
        ? `no provedor de identidade ${labels[0]}`
        : `nos provedores de identidade ${labels.slice(0, -1).join(', ')} e ${labels.at(-1)}`
  return [ifYou, ...endSessions, `${then} troque a senha da sua conta ${where} e avise ${ADMINS}.`]
}

/** The mail: what happened, when, from where and with which browser, who did it, what to do. */
export function securityNoticeMail(
  to: string,
  event: AuditEventsTable,
  publicUrl: string,
  reader: NoticeReader,
): MailMessage | null {
  const details = JSON.parse(event.details) as AuditDetails
  const kind = securityNoticeKind(event.type as never, details)
  if (kind === undefined) return null
  const { subject, sentence } = whatHappened(kind, details, reader)
  const where = [
    `em ${brasiliaDateTime(new Date(event.at))} (horário de Brasília)`,
    event.ip && `a partir do endereço ${event.ip}`,
    event.user_agent && `com ${browserName(event.user_agent)}`,
  ].filter(Boolean)
  const paragraphs = [
    `Olá, ${reader.name}.`,
    `${sentence}, ${where.join(', ')}.`,
    whoDidIt(kind, event, details, reader.labels),
    ...advice(kind, authorOf(kind, event, details), reader, details, publicUrl),
    kind === 'new_browser'
      ? 'Você pode desligar este aviso de navegador novo em Minha conta, em "Avisos de segurança". Os outros avisos de segurança são sempre enviados.'
      : undefined,
  ].filter((paragraph): paragraph is string => typeof paragraph === 'string')
  return composeMail(to, subject, paragraphs)
}
