import type { AuditDetails, AuditType } from './api/audit'
import { permissionDescriptions, type Permission } from './permissions'
import type { ProviderLabels } from './provider-labels'

/**
 * An audit event's details as a pt-BR sentence part ("encerrou 1 das próprias sessões", "com o
 * aplicativo autenticador", "chave de acesso «Notebook»"): the Auditoria screen, the dashboard
 * and the CSV say the same words, so it lives here. The log keeps keys and codes; a person reads
 * neither. A key or a value this file does not know is left out rather than shown raw: an id or
 * `which: one` tells the reader nothing, and a new key is caught by the test that renders every
 * key of AUDIT_DETAIL_KEYS.
 *
 * A sign-in provider is recorded by its AUTH_PROVIDERS name and said by its label, looked up when
 * the words are made (common/provider-labels.ts): events written before a label was set or
 * changed read with today's label, and the log keeps no words that configuration owns.
 */

/** The details keys each event type is recorded with, for the test that renders all of them. */
export const AUDIT_DETAIL_KEYS: Record<AuditType, readonly string[]> = {
  sign_in: ['method', 'provider', 'provider_mfa', 'new_browser', 'notice'],
  sign_in_failed: ['method', 'during', 'email', 'provider', 'reason'],
  locked: ['notice'],
  unlocked: [],
  signed_out: [],
  session_ended: ['sessions', 'by', 'which'],
  password_changed: [],
  reset_requested: ['by'],
  password_reset: [],
  registered: ['via'],
  approved: ['from', 'to'],
  refused: ['reason'],
  disabled: ['from', 'to'],
  reenabled: ['from', 'to'],
  role_changed: ['from', 'to', 'provider', 'from_role', 'to_role', 'notice'],
  invited: ['role', 'role_name', 'team'],
  mfa_enabled: ['method', 'notice'],
  mfa_disabled: ['method', 'by', 'totp', 'passkeys', 'notice'],
  passkey_added: ['passkey', 'name', 'notice'],
  passkey_removed: ['passkey', 'name', 'by', 'notice'],
  recovery_code_used: ['left', 'during', 'notice'],
  recovery_codes_regenerated: ['notice'],
  passkey_renamed: ['passkey', 'from', 'name'],
  invitation_resent: [],
  name_changed: ['from', 'to'],
  provider_linked: ['provider', 'by', 'notice'],
  provider_unlinked: ['provider', 'by', 'notice'],
  provider_link_invited: ['provider'],
  team_changed: ['from', 'to', 'provider', 'notice'],
  role_created: ['name', 'permissions', 'scope'],
  role_updated: ['from_name', 'name', 'added', 'removed', 'from_scope', 'scope'],
  role_deleted: ['name', 'permissions', 'scope'],
  team_created: ['name', 'open'],
  team_updated: ['from_name', 'name', 'from_open', 'open'],
  team_deletion_started: ['name', 'members'],
  team_deleted: ['name', 'members'],
  notice_sent: ['notice'],
  notices_changed: ['new_browser'],
  email_change_requested: ['by', 'notice'],
  email_changed: ['from', 'to'],
  email_change_cancelled: [],
  data_exported: [],
  deletion_requested: [],
  deletion_refused: ['reason'],
  anonymised: ['events'],
  provisioned: [],
  deprovisioned: [],
  scim_token_created: ['name'],
  scim_token_revoked: ['name'],
}

/** Keys kept for the record that are never shown: an id is not something a person reads. */
export const UNSPOKEN_DETAIL_KEYS: ReadonlySet<string> = new Set(['passkey'])

/** Account statuses and roles, as the Equipe screen names them (a client test keeps them equal). */
export const auditStatusNames: Record<string, string> = {
  pending: 'Aguardando aprovação',
  active: 'Ativa',
  disabled: 'Desativada',
  invited: 'Convite pendente',
}
export const auditRoleNames: Record<string, string> = {
  admin: 'Administrador',
  staff: 'Equipe',
}

const signInMethods: Record<string, string> = {
  password: 'com senha',
  totp: 'com o aplicativo autenticador',
  recovery_code: 'com um código de recuperação',
  passkey: 'com uma chave de acesso',
}

/** Why a sign-in at a provider was refused (features/sign-in-with-provider on the server). */
const providerRefusals: Record<string, string> = {
  cancelled: 'cancelada no provedor',
  provider_error: 'o provedor respondeu com um erro',
  invalid_callback: 'retorno do provedor incompleto',
  link_expired: 'tentativa expirada ou já usada',
  provider_unreachable: 'provedor fora do ar',
  code_rejected: 'o provedor recusou o código',
  token_rejected: 'resposta do provedor não confirmada',
  userinfo_failed: 'o provedor não informou os dados da pessoa (UserInfo)',
  userinfo_mismatch: 'os dados do provedor (UserInfo) eram de outra pessoa',
  domain_not_allowed: 'domínio do e-mail não permitido',
  pending_approval: 'cadastro aguardando aprovação',
  account_disabled: 'conta desativada',
  link_required: 'e-mail não confirmado pelo provedor, falta vincular com a senha',
  email_missing: 'o provedor não informou o e-mail',
  too_many_attempts: 'tentativas demais',
  invitation_expired: 'link de vínculo inválido, usado ou expirado',
  linked_elsewhere: 'a conta no provedor já está vinculada a outra pessoa',
}

/**
 * A provider in a sentence: always after the word "provedor", so that any label reads right
 * ("pelo provedor «Conta Corporativa»", "pelo provedor «Google»"), whatever its gender or number.
 */
const provider = (name: unknown, labels: ProviderLabels) =>
  text(name) && `provedor ${quoted(labels(text(name)!))}`
const viaProvider = (d: AuditDetails, labels: ProviderLabels) =>
  provider(d.provider, labels) && `pelo ${provider(d.provider, labels)}`

const linkedBy: Record<string, string> = {
  verified_email: 'pelo e-mail confirmado pelo provedor',
  new_account: 'ao criar a conta',
  password: 'com a senha da conta, na entrada pelo provedor',
  owner: 'pela própria pessoa',
  admin: 'por um administrador',
  admin_link: 'pelo link que um administrador enviou à pessoa',
}

/** What a security notice was about (server/security-notices/security-notice-kinds.ts). */
const noticeAbout: Record<string, string> = {
  new_browser: 'sobre uma entrada de um navegador novo',
  mfa_enabled: 'sobre o segundo fator ativado',
  mfa_disabled: 'sobre o segundo fator desativado',
  recovery_codes_regenerated: 'sobre códigos de recuperação gerados de novo',
  recovery_code_used: 'sobre um código de recuperação usado',
  passkey_added: 'sobre uma chave de acesso adicionada',
  passkey_removed: 'sobre uma chave de acesso removida',
  locked: 'sobre a conta bloqueada por tentativas erradas',
  role_changed: 'sobre o papel alterado',
  provider_linked: 'sobre um provedor de identidade vinculado',
  provider_unlinked: 'sobre um provedor de identidade desvinculado',
  email_change_requested: 'sobre um pedido de troca de e-mail',
}

const count = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`)

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined

/** «Notebook»: a name someone typed, set apart from the sentence around it. */
const quoted = (name: string) => `«${name}»`

/** "de Ativa para Desativada", when both ends are known words. */
const scopeNames: Record<string, string> = {
  all: 'sobre todas as pessoas',
  team: 'só sobre o próprio time',
}

/** A team's name as the sentence says it; none is "nenhum time". */
const teamWords = (name: unknown) => (text(name) ? quoted(text(name)!) : 'nenhum time')

/** Permissions recorded as codes joined by commas, said by their descriptions. */
function permissionList(lead: string, codes: unknown): string | undefined {
  const words = (text(codes) ?? '')
    .split(',')
    .map((code) => permissionDescriptions[code.trim() as Permission])
    .filter(Boolean)
    .map((description) => {
      // The head of the description: "Ver a equipe", "Exportar o registro de auditoria".
      const head = description.split(':')[0]!.replace(/\s*\(.*\)$/, '')
      return head[0]!.toLowerCase() + head.slice(1)
    })
  return words.length > 0 ? `${lead} ${words.join(', ')}` : undefined
}

function renamed(d: AuditDetails): string | undefined {
  const before = text(d.from_name)
  const after = text(d.name)
  if (!after) return undefined
  return before && before !== after ? `de ${quoted(before)} para ${quoted(after)}` : quoted(after)
}

function change(names: Record<string, string>, from: unknown, to: unknown): string | undefined {
  const before = names[String(from)]
  const after = names[String(to)]
  return before && after && before !== after ? `de ${before} para ${after}` : undefined
}

/**
 * "de «Ana» para «Ana Maria»"; only the new name when the old one is not known. Equal ends say
 * nothing: no change is recorded with them (its writers compare first), but an account
 * anonymised before that was fixed had both ends replaced by its pseudonym.
 */
function fromTo(from: unknown, to: unknown): string | undefined {
  const before = text(from)
  const after = text(to)
  if (before && after)
    return before === after ? undefined : `de ${quoted(before)} para ${quoted(after)}`
  return after && `agora ${quoted(after)}`
}

function sessionsEnded(details: AuditDetails): string | undefined {
  const n = number(details.sessions)
  if (n === undefined) return undefined
  if (details.by === 'owner') {
    if (details.which === 'others') {
      return n === 1 ? 'encerrou a outra sessão aberta' : `encerrou as outras ${n} sessões abertas`
    }
    return `encerrou ${n} das próprias sessões`
  }
  const ended = count(n, 'sessão encerrada', 'sessões encerradas')
  return details.by === 'admin' ? `${ended} por um administrador` : ended
}

function secondFactorsRemoved(details: AuditDetails): string | undefined {
  if (details.by === 'owner') {
    return details.method === 'totp'
      ? 'desligou o próprio aplicativo autenticador'
      : 'desligou o próprio segundo fator'
  }
  const removed: string[] = []
  if (details.totp === true) removed.push('o aplicativo autenticador', 'os códigos de recuperação')
  const passkeys = number(details.passkeys)
  if (passkeys) removed.push(count(passkeys, 'chave de acesso', 'chaves de acesso'))
  const what =
    removed.length > 0
      ? removed.slice(0, -1).join(', ') + (removed.length > 1 ? ' e ' : '') + removed.at(-1)
      : 'o segundo fator'
  return details.by === 'admin' ? `um administrador removeu ${what}` : `removeu ${what}`
}

function recoveryCodesLeft(details: AuditDetails): string | undefined {
  const left = number(details.left)
  if (left === undefined) return undefined
  if (left === 0) return 'não resta nenhum código de recuperação'
  return left === 1 ? 'resta 1 código de recuperação' : `restam ${left} códigos de recuperação`
}

type Parts = (string | undefined | false)[]

const describe: Record<AuditType, (details: AuditDetails, labels: ProviderLabels) => Parts> = {
  sign_in: (d, labels) => [
    signInMethods[String(d.method)],
    viaProvider(d, labels),
    d.provider_mfa === true && 'com verificação em duas etapas no provedor',
    d.new_browser === true && 'de um navegador novo para a conta',
  ],
  sign_in_failed: (d, labels) => [
    signInMethods[String(d.method)],
    viaProvider(d, labels),
    providerRefusals[String(d.reason)],
    d.during === 'confirmation' &&
      (d.method === 'password'
        ? 'ao confirmar a senha antes de uma alteração na própria conta'
        : 'ao confirmar com um código uma alteração na própria conta'),
    d.during === 'provider_link' && 'ao vincular um provedor com a senha',
    text(d.email) && `com o e-mail ${text(d.email)}, que não é de nenhuma conta`,
  ],
  locked: () => [],
  unlocked: () => [],
  signed_out: () => [],
  session_ended: (d) => [sessionsEnded(d)],
  password_changed: () => [],
  reset_requested: (d) => [d.by === 'admin' && 'por um administrador'],
  password_reset: () => [],
  registered: (d, labels) => [provider(d.via, labels) && `pelo ${provider(d.via, labels)}`],
  approved: (d) => [change(auditStatusNames, d.from, d.to)],
  refused: (d) => [text(d.reason) && `pelo motivo ${quoted(text(d.reason)!)}`],
  disabled: (d) => [change(auditStatusNames, d.from, d.to)],
  reenabled: (d) => [change(auditStatusNames, d.from, d.to)],
  role_changed: (d, labels) => [
    text(d.from_role) && text(d.to_role)
      ? `de ${quoted(text(d.from_role)!)} para ${quoted(text(d.to_role)!)}`
      : change(auditRoleNames, d.from, d.to),
    viaProvider(d, labels),
  ],
  invited: (d) => [
    text(d.role_name)
      ? `com o papel ${quoted(text(d.role_name)!)}`
      : auditRoleNames[String(d.role)] && `com o papel ${auditRoleNames[String(d.role)]}`,
    text(d.team) && `no time ${quoted(text(d.team)!)}`,
  ],
  mfa_enabled: (d) => [d.method === 'totp' && 'com o aplicativo autenticador'],
  mfa_disabled: (d) => [secondFactorsRemoved(d)],
  passkey_added: (d) => [text(d.name) && `chave de acesso ${quoted(text(d.name)!)}`],
  passkey_removed: (d) => [
    text(d.name) && `chave de acesso ${quoted(text(d.name)!)}`,
    d.by === 'owner' && 'pela própria pessoa',
  ],
  recovery_code_used: (d) => [
    d.during === 'confirmation' && 'para confirmar uma alteração na própria conta',
    recoveryCodesLeft(d),
  ],
  recovery_codes_regenerated: () => [],
  passkey_renamed: (d) => [fromTo(d.from, d.name)],
  invitation_resent: () => [],
  name_changed: (d) => [fromTo(d.from, d.to)],
  provider_linked: (d, labels) => [viaProvider(d, labels), linkedBy[String(d.by)]],
  provider_unlinked: (d, labels) => [viaProvider(d, labels), linkedBy[String(d.by)]],
  provider_link_invited: (d, labels) => [
    provider(d.provider, labels) && `para o ${provider(d.provider, labels)}`,
  ],
  team_changed: (d, labels) => [
    d.from !== d.to && `de ${teamWords(d.from)} para ${teamWords(d.to)}`,
    viaProvider(d, labels),
  ],
  role_created: (d) => [
    text(d.name) && quoted(text(d.name)!),
    scopeNames[String(d.scope)],
    permissionList('com as permissões', d.permissions) ?? 'sem permissões',
  ],
  role_updated: (d) => [
    renamed(d),
    d.from_scope !== d.scope &&
      scopeNames[String(d.from_scope)] &&
      scopeNames[String(d.scope)] &&
      `alcance de ${scopeNames[String(d.from_scope)]} para ${scopeNames[String(d.scope)]}`,
    permissionList('deu', d.added),
    permissionList('tirou', d.removed),
  ],
  role_deleted: (d) => [
    text(d.name) && quoted(text(d.name)!),
    scopeNames[String(d.scope)],
    permissionList('que tinha', d.permissions),
  ],
  team_created: (d) => [
    text(d.name) && quoted(text(d.name)!),
    d.open === true && 'aberto a cadastros',
  ],
  team_updated: (d) => [
    renamed(d),
    typeof d.from_open === 'boolean' &&
      typeof d.open === 'boolean' &&
      d.open !== d.from_open &&
      (d.open ? 'agora aberto a cadastros' : 'agora fechado a cadastros'),
  ],
  team_deletion_started: (d) => [
    text(d.name) && quoted(text(d.name)!),
    number(d.members) !== undefined && `${number(d.members)} pessoa(s) saindo do time`,
  ],
  team_deleted: (d) => [
    text(d.name) && quoted(text(d.name)!),
    number(d.members) !== undefined && `${number(d.members)} pessoa(s) ficaram sem time`,
  ],
  notice_sent: (d) => [noticeAbout[String(d.notice)]],
  notices_changed: (d) => [
    d.new_browser === true && 'aviso de navegador novo ligado',
    d.new_browser === false && 'aviso de navegador novo desligado',
  ],
  email_change_requested: (d) => [d.by === 'admin' && 'por um administrador'],
  email_changed: (d) => {
    const before = text(d.from)
    const after = text(d.to)
    // Equal ends: an account anonymised since (both became its pseudonym); nothing to say.
    return [before && after && before !== after && `de ${before} para ${after}`]
  },
  email_change_cancelled: () => [],
  data_exported: () => [],
  deletion_requested: () => [],
  deletion_refused: (d) => [text(d.reason) && `pelo motivo ${quoted(text(d.reason)!)}`],
  anonymised: (d) => [
    number(d.events) !== undefined &&
      `${count(number(d.events)!, 'evento anterior mantido', 'eventos anteriores mantidos')} sob pseudônimo`,
  ],
  provisioned: () => [],
  deprovisioned: () => [],
  scim_token_created: (d) => [text(d.name) && quoted(text(d.name)!)],
  scim_token_revoked: (d) => [text(d.name) && quoted(text(d.name)!)],
}

/**
 * The owner's security notice, folded into the event that caused it (server/audit-log/record-audit.ts
 * marks it `notice: true`); events written before had a "notice_sent" event of their own.
 */
export const NOTICE_SENT_WORDS = 'aviso enviado por e-mail'

/**
 * The details of one event in pt-BR, parts joined by commas; '' when there is nothing to say.
 * `labels` names the sign-in providers (common/provider-labels.ts).
 */
export function auditDetailsText(
  type: AuditType,
  details: AuditDetails,
  labels: ProviderLabels,
): string {
  const parts = describe[type]?.(details, labels) ?? []
  if (details.notice === true) parts.push(NOTICE_SENT_WORDS)
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join(', ')
}
