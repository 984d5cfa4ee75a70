import { writeAccountChange } from '../../accounts/account-administration'
import type { Access } from '../../../common/api/roles'
import type { ApiContext } from '../../api/api-context'
import { recordAudit, type AuditParty } from '../../audit-log/record-audit'
import type { Db } from '../../db/database'
import { forgetDeletedBytes } from '../../db/forget-deleted-bytes'
import { keepQuotedEmails } from '../../db/quoted-emails'
import type { Account } from '../../db/schema'
import type { RequestOrigin } from '../../http/request-origin'

/**
 * The stable pseudonym an anonymised account keeps in the audit log: derived from its id (which
 * names nobody), so every one of its events still counts under one name, and the same name if
 * anonymisation is ever run again over the same id.
 */
export function pseudonymOf(id: string): AuditParty {
  const short = id.slice(0, 8)
  return { id, name: `Pessoa anonimizada ${short}`, email: `${short}@anonimizado.invalid` }
}

/**
 * Removes an account's personal data everywhere (LGPD art. 18, IV and VI; docs/personal-data.md):
 * the account row and everything hanging from it (sessions, browsers, second factors, passkeys,
 * provider links with their CPF, links and challenges), the mails to any address it had, its
 * sign-in counts, and in the audit log its names, addresses, the IP addresses and browsers of
 * what it did, and its e-mails and names inside details, replaced by a stable pseudonym so the
 * log keeps its sequence and counts. One transaction under writeAccountChange's rules: never
 * one's own account, never the last active admin. Once it has committed, the embedded store's
 * files are made to forget the deleted bytes (db/forget-deleted-bytes.ts).
 */
export async function anonymiseAccount(
  context: Pick<ApiContext, 'db' | 'now' | 'log'>,
  admin: Account,
  rawId: string,
  origin: RequestOrigin,
  /** The caller's reach and rank (roles/): someone out of reach is not found. */
  access?: Access,
): Promise<void> {
  const at = context.now()
  await writeAccountChange(
    context.db,
    admin,
    rawId,
    { status: 'disabled' },
    async (trx, before) => {
      const pseudonym = pseudonymOf(before.id)
      const { emails, names } = await identifiersOf(trx, before)
      // The e-mail changes before the mails: the outbox mints a change's link in that order
      // (email_changes, then its mail_outbox row), and the other order deadlocked with it on
      // PostgreSQL when an anonymisation met a confirmation link being sent. An admin's link to
      // connect a provider is minted the same way (provider_link_invitations).
      await trx.deleteFrom('email_changes').where('account_id', '=', before.id).execute()
      await trx
        .deleteFrom('provider_link_invitations')
        .where('account_id', '=', before.id)
        .execute()
      const events = await scrubAuditLog(trx, before.id, pseudonym, emails, names)
      // A mail quoting the person by e-mail or by name (the admins' notices of a registration or
      // of a deletion request name them) goes, whatever its state; so does one whose last SMTP
      // error quotes the address ("550 <x@y>: no such user").
      for (const word of [...emails, ...names.filter(quotable)]) {
        const like = containing(word)
        await trx
          .deleteFrom('mail_outbox')
          .where((eb) =>
            eb.or([
              eb('recipient', '=', word),
              eb('subject', 'like', like),
              eb('text', 'like', like),
              eb('html', 'like', like),
              eb('request', 'like', like),
              eb('last_error', 'like', like),
            ]),
          )
          .execute()
      }
      for (const email of emails) {
        const like = containing(email)
        await trx
          .deleteFrom('sign_in_limits')
          .where((eb) => eb.or([eb('account', '=', email), eb('key', 'like', like)]))
          .execute()
        await trx.deleteFrom('auth_throttle').where('key', 'like', like).execute()
      }
      // The rows hanging from the account go with it (foreign keys, on both engines); sessions
      // end at once. Said out loud for the tables whose rows name the account but not by a key.
      await trx.deleteFrom('sessions').where('account_id', '=', before.id).execute()
      await trx.deleteFrom('provider_links').where('account_id', '=', before.id).execute()
      await trx.deleteFrom('accounts').where('id', '=', before.id).execute()
      await trx
        .updateTable('deletion_requests')
        .set({ decided_at: at, decided_by: admin.id, outcome: 'anonymised' })
        .where('account_id', '=', before.id)
        .where('decided_at', 'is', null)
        .execute()
      // An earlier refusal's reason is an admin's free text about the person ("pedido de Fulana
      // (fulana@…)"), which no replacement of known names can be sure to catch: it goes. The
      // rows stay (when asked, when and by whom decided, how), naming the account by id only.
      await trx
        .updateTable('deletion_requests')
        .set({ reason: null })
        .where('account_id', '=', before.id)
        .execute()
      await recordAudit(trx, {
        type: 'anonymised',
        actor: { id: admin.id, name: admin.name, email: admin.email },
        account: pseudonym,
        origin,
        details: { events },
        at,
      })
    },
    access,
  )
  const forgotten = await forgetDeletedBytes(context.db)
  if (forgotten === 'busy')
    context.log.warn(
      'anonymisation: the WAL is in use (a backup?); its old pages go at the next checkpoint',
    )
}

/** Every e-mail and name the account has had, as far as the panel kept them. */
async function identifiersOf(trx: Db, account: Account) {
  const emails = new Set([account.email])
  const names = new Set([account.name])
  const changes = await trx
    .selectFrom('email_changes')
    .select('new_email')
    .where('account_id', '=', account.id)
    .execute()
  for (const change of changes) emails.add(change.new_email)
  const parties = await trx
    .selectFrom('audit_events')
    .select([
      'actor_id',
      'actor_name',
      'actor_email',
      'account_id',
      'account_name',
      'account_email',
    ])
    .where((eb) => eb.or([eb('account_id', '=', account.id), eb('actor_id', '=', account.id)]))
    .execute()
  for (const row of parties) {
    if (row.account_id === account.id) {
      if (row.account_email) emails.add(row.account_email)
      if (row.account_name) names.add(row.account_name)
    }
    if (row.actor_id === account.id) {
      if (row.actor_email) emails.add(row.actor_email)
      if (row.actor_name) names.add(row.actor_name)
    }
  }
  return { emails: [...emails].filter(Boolean), names: [...names].filter(Boolean) }
}

/**
 * A name long enough to look for inside other rows' text: a one-word name of a few letters
 * ("Ana") would match unrelated mails, while a whole name someone typed rarely does.
 */
const quotable = (name: string) => name.trim().length >= 8

/**
 * A LIKE pattern containing the text. Not escaped: the engines escape differently (SQLite only
 * with an ESCAPE clause), and `_` or `%` in an e-mail only widens the match, which errs on the
 * side of removing.
 */
const containing = (text: string) => `%${text}%`

/**
 * The audit log's part: the account's own events keep their type, time and details under the
 * pseudonym (names and e-mails inside the details replaced too); the address and browser of
 * what the account did go. Events of others that quote one of its e-mails (a failed sign-in
 * with it before it had an account) have that e-mail replaced: those that quote it whole
 * (db/quoted-emails.ts; `ana@x.com` is not quoted by `joana@x.com`). Answers how many events are
 * the account's, which the log keeps counting.
 */
async function scrubAuditLog(
  trx: Db,
  id: string,
  pseudonym: AuditParty,
  emails: string[],
  names: string[],
): Promise<number> {
  await trx
    .updateTable('audit_events')
    .set({ account_name: pseudonym.name, account_email: pseudonym.email })
    .where('account_id', '=', id)
    .execute()
  await trx
    .updateTable('audit_events')
    .set({ actor_name: pseudonym.name, actor_email: pseudonym.email, ip: null, user_agent: null })
    .where('actor_id', '=', id)
    .execute()
  await trx
    .updateTable('audit_events')
    .set({ ip: null, user_agent: null })
    .where('account_id', '=', id)
    .where('actor_id', 'is', null)
    .execute()
  const own = await trx
    .selectFrom('audit_events')
    .select(['id', 'type', 'details'])
    .where((eb) => eb.or([eb('account_id', '=', id), eb('actor_id', '=', id)]))
    .execute()
  // Found by the addresses recordAudit keeps beside the log (db/quoted-emails.ts), not by
  // reading every event's details: at a year of events that read held SQLite's loop.
  const addresses = emails.map((email) => email.toLowerCase())
  const quoting = await trx
    .selectFrom('audit_events')
    .select(['id', 'type', 'details'])
    .where('id', 'in', (eb) =>
      eb.selectFrom('audit_event_emails').select('event_id').where('email', 'in', addresses),
    )
    .execute()
  const ownIds = new Set(own.map((row) => row.id))
  for (const row of [...own, ...quoting.filter((row) => !ownIds.has(row.id))]) {
    const theirs = ownIds.has(row.id)
    const words = theirs ? [...emails, ...names] : emails
    const freeText = theirs ? (FREE_TEXT_KEYS[row.type] ?? []) : []
    const details = replaceIn(row.details, words, pseudonym, freeText)
    if (details !== row.details) {
      await trx.updateTable('audit_events').set({ details }).where('id', '=', row.id).execute()
      // The event's addresses as its details now quote them: the person's replaced, and those
      // of free text that went (a refusal's reason) gone with it.
      await trx.deleteFrom('audit_event_emails').where('event_id', '=', row.id).execute()
      await keepQuotedEmails(trx, [{ id: row.id, details }])
    }
  }
  return own.length
}

/**
 * The two ends of a change in an event's details (name_changed, email_changed: from/to;
 * passkey_renamed: from/name; role_updated, team_updated: from_name/name).
 */
const CHANGE_ENDS = [
  ['from', 'to'],
  ['from', 'name'],
  ['from_name', 'name'],
] as const

/**
 * Details that are someone's free text, which may quote the person in any form (a refusal's
 * reason: "pedido de Fulana (fulana@…)"; a passkey's name: "Celular da Fulana"): in the
 * person's own events they go, since no replacement of known names can be sure to catch them.
 */
const FREE_TEXT_KEYS: Record<string, readonly string[]> = {
  refused: ['reason'],
  deletion_refused: ['reason'],
  passkey_added: ['name'],
  passkey_removed: ['name'],
  passkey_renamed: ['from', 'name'],
}

/**
 * The details' string values with each e-mail or name replaced (any case) by the pseudonym's.
 * A change between two of the person's own names or e-mails would read "de «Pessoa anonimizada
 * 4ae7…» para «Pessoa anonimizada 4ae7…»", a change that changed nothing: both ends go instead,
 * and the event still says what kind of change it was.
 */
function replaceIn(
  json: string,
  words: string[],
  pseudonym: AuditParty,
  freeText: readonly string[],
): string {
  const details = JSON.parse(json) as Record<string, unknown>
  for (const key of freeText) delete details[key]
  const before = { ...details }
  const longestFirst = [...words].sort((a, b) => b.length - a.length)
  for (const [key, value] of Object.entries(details)) {
    if (typeof value !== 'string') continue
    let text = value
    for (const word of longestFirst) {
      const replacement = word.includes('@') ? pseudonym.email : pseudonym.name
      text = text.replace(
        new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'),
        replacement,
      )
    }
    details[key] = text
  }
  for (const [from, to] of CHANGE_ENDS) {
    if (typeof details[from] !== 'string' || before[from] === before[to]) continue
    if (details[from] === details[to]) {
      delete details[from]
      delete details[to]
    }
  }
  return JSON.stringify(details)
}
