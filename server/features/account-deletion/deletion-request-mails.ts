import { STAFF_PERMISSIONS } from '../../../common/staff-permissions'
import type { ApiContext } from '../../api/api-context'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import { brasiliaDate } from '../../mail/brasilia-time'
import { composeMail } from '../../mail/compose'
import type { MailMessage } from '../../mail/mailer'
import { effectivePermissions } from '../../roles/grant-rules'
import { outranks } from '../../roles/rank'
import { permissionsOfRoles } from '../../roles/role-store'

/**
 * Who is told of a request for deletion, and when (docs/personal-data.md, "Anonymisation"):
 * everyone who may decide it is mailed when it arrives, and once more REMINDER_DAYS_BEFORE the
 * date by which it is to be answered, if still open; the person is mailed that it arrived and by
 * when it will be answered.
 */

/** LGPD art. 19, II: a full answer within 15 days of the request. */
export const ANSWER_DAYS = 15
/**
 * The reminder goes 5 days before that date (day 10): a week after the first mail, which may
 * have gone to someone on leave, and with time left to decide and to tell the person.
 */
export const REMINDER_DAYS_BEFORE = 5

const DAY_MS = 86_400_000

export const answerBy = (requestedAt: Date) =>
  new Date(requestedAt.getTime() + ANSWER_DAYS * DAY_MS)

type Person = Pick<Account, 'id' | 'name' | 'email' | 'role_id' | 'team_id'>
type Decider = Pick<Account, 'id' | 'name' | 'email'>

/**
 * Those who may decide the person's request: active holders of a role whose effective
 * permissions (roles/grant-rules.ts, as every check reads them: roles/access.ts) include
 * anonymising, who reach the person (a role for all, or one scoped to the person's team:
 * roles/team-scope.ts) and whom the person's role does not outrank (roles/rank.ts: they could not
 * anonymise them), never the person.
 */
export async function decidersFor(db: Db, person: Person): Promise<Decider[]> {
  const roles = await db.selectFrom('roles').select('id').execute()
  const permissions = await permissionsOfRoles(db, [
    ...new Set([person.role_id, ...roles.map((role) => role.id)]),
  ])
  const theirs = permissions.get(person.role_id) ?? []
  const deciding = roles
    .map((role) => role.id)
    .filter((roleId) => {
      const held = effectivePermissions(permissions.get(roleId) ?? [])
      return held.includes(STAFF_PERMISSIONS.anonymise) && !outranks(theirs, { permissions: held })
    })
  if (deciding.length === 0) return []
  return db
    .selectFrom('accounts')
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .select(['accounts.id', 'accounts.name', 'accounts.email'])
    .where('accounts.status', '=', 'active')
    .where('accounts.id', '!=', person.id)
    .where('accounts.role_id', 'in', deciding)
    .where((eb) =>
      person.team_id === null
        ? eb('roles.scope', '=', 'all')
        : eb.or([
            eb('roles.scope', '=', 'all'),
            eb.and([eb('roles.scope', '=', 'team'), eb('accounts.team_id', '=', person.team_id)]),
          ]),
    )
    .orderBy('accounts.created_at')
    .execute()
}

const listUrl = (publicUrl: string) => `${publicUrl}/#/equipe/pedidos-de-exclusao`

export function deletionRequestReceivedMail(person: Person, by: Date): MailMessage {
  return composeMail(person.email, 'Painel: recebemos seu pedido de exclusão da conta', [
    `Olá, ${person.name}.`,
    'Recebemos o seu pedido de exclusão da sua conta no Painel. Quem administra o Painel vai anonimizar a conta (o seu nome, e-mail e o que identifica você deixam de existir) ou dizer por que não pode.',
    `Você terá a resposta até ${brasiliaDate(by)}, no máximo 15 dias depois do pedido (Lei Geral de Proteção de Dados, art. 19).`,
    'Até lá, a sua conta continua funcionando como antes. Se não foi você quem pediu, troque a sua senha em Minha conta e fale com quem administra o Painel.',
  ])
}

export function deletionRequestNoticeMail(
  to: Decider,
  person: Person,
  by: Date,
  publicUrl: string,
): MailMessage {
  return composeMail(to.email, 'Painel: novo pedido de exclusão de conta', [
    `Olá, ${to.name}.`,
    `${person.name} (${person.email}) pediu a exclusão da própria conta no Painel.`,
    `O pedido deve ser respondido até ${brasiliaDate(by)} (15 dias, Lei Geral de Proteção de Dados, art. 19): anonimize a conta ou recuse o pedido informando o motivo, em Equipe › Pedidos de exclusão:`,
    listUrl(publicUrl),
    `Você recebe este aviso porque o seu papel permite excluir contas. Se o pedido continuar aberto, um lembrete chega ${REMINDER_DAYS_BEFORE} dias antes do prazo.`,
  ])
}

export function deletionRequestReminderMail(
  to: Decider,
  person: Pick<Account, 'name' | 'email'>,
  requestedAt: Date,
  publicUrl: string,
): MailMessage {
  const by = answerBy(requestedAt)
  return composeMail(to.email, 'Painel: pedido de exclusão de conta aguardando resposta', [
    `Olá, ${to.name}.`,
    `O pedido de exclusão da conta de ${person.name} (${person.email}), feito em ${brasiliaDate(requestedAt)}, ainda não foi respondido.`,
    `O prazo termina em ${brasiliaDate(by)} (15 dias, Lei Geral de Proteção de Dados, art. 19). Anonimize a conta ou recuse o pedido informando o motivo, em Equipe › Pedidos de exclusão:`,
    listUrl(publicUrl),
  ])
}

/**
 * In the request's transaction: the person's acknowledgement, and a mail to each who may decide.
 */
export async function queueDeletionRequestMails(
  trx: Db,
  context: Pick<ApiContext, 'outbox'> & { config: Pick<ApiContext['config'], 'publicUrl'> },
  person: Person,
  requestedAt: Date,
): Promise<void> {
  const by = answerBy(requestedAt)
  await context.outbox.queue(trx, 'deletion_requested', deletionRequestReceivedMail(person, by))
  for (const decider of await decidersFor(trx, person)) {
    await context.outbox.queue(
      trx,
      'deletion_request_notice',
      deletionRequestNoticeMail(decider, person, by, context.config.publicUrl),
    )
  }
}

/**
 * The reminder of each open request REMINDER_DAYS_BEFORE its date, once: the request is marked
 * reminded by a conditional update in the transaction that queues the mails, so two replicas (or
 * a run after a restart) never both send it. Run by the hourly housekeeping
 * (server/built-in-api.ts); answers how many requests were reminded.
 */
export async function remindOfDeletionRequests(
  context: Pick<ApiContext, 'db' | 'outbox'> & { config: Pick<ApiContext['config'], 'publicUrl'> },
  now = new Date(),
): Promise<number> {
  const due = new Date(now.getTime() - (ANSWER_DAYS - REMINDER_DAYS_BEFORE) * DAY_MS)
  const open = await context.db
    .selectFrom('deletion_requests')
    .select(['id', 'account_id', 'requested_at'])
    .where('decided_at', 'is', null)
    .where('reminded_at', 'is', null)
    .where('requested_at', '<=', due)
    .execute()
  let reminded = 0
  for (const request of open) {
    await context.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('deletion_requests')
        .set({ reminded_at: now })
        .where('id', '=', request.id)
        .where('decided_at', 'is', null)
        .where('reminded_at', 'is', null)
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) === 0) return
      const person = await trx
        .selectFrom('accounts')
        .select(['id', 'name', 'email', 'role_id', 'team_id'])
        .where('id', '=', request.account_id)
        .executeTakeFirst()
      if (!person) return
      for (const decider of await decidersFor(trx, person)) {
        await context.outbox.queue(
          trx,
          'deletion_request_reminder',
          deletionRequestReminderMail(
            decider,
            person,
            new Date(request.requested_at),
            context.config.publicUrl,
          ),
        )
      }
      reminded += 1
    })
  }
  if (reminded > 0) context.outbox.wake()
  return reminded
}
