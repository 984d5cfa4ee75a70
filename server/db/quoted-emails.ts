import { sql, type QueryExecutorProvider } from 'kysely'
import type { AuditDetails } from '../../common/api/audit'

/**
 * The e-mail addresses an event's details quote, lower-cased, each once: the address a failed
 * sign-in was tried with, the two ends of an e-mail change, an address typed into a reason or a
 * name. recordAudit keeps them in `audit_event_emails` (list-migrations.ts, 4212), so that an
 * anonymisation finds the events of others that quote the person's address by an index instead
 * of reading every event's details (features/account-deletion/anonymise-account.ts).
 *
 * An address is a run of the characters common/account-rules.ts's EMAIL_PATTERN allows, with an
 * `@` inside: what touches it on either side and is not such a character ends it («», quotes,
 * brackets, blanks, a colon, a comma), and a dot that ends a sentence is not part of it. An
 * address is found only whole: `ana@x.com` is not found inside `joana@x.com` or `ana@x.com.br`,
 * which are other people's. A character outside printable ASCII is recorded as `U+XXXX`
 * (emailAsTyped in common/account-rules.ts); it ends an address too, so that an attempt with
 * `ana@x.com` and an invisible character after it still counts as quoting ana@x.com.
 */
export function quotedEmails(details: AuditDetails): string[] {
  const found = new Set<string>()
  for (const value of Object.values(details)) {
    if (typeof value === 'string') for (const email of emailsIn(value)) found.add(email)
  }
  return [...found]
}

const ADDRESS = /[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9.-]+/gi
const WRITTEN_AS_CODE_POINT = /U\+[0-9A-F]{4,6}/g

function emailsIn(text: string): string[] {
  if (!text.includes('@')) return []
  const emails: string[] = []
  for (const [match] of text.replace(WRITTEN_AS_CODE_POINT, ' ').matchAll(ADDRESS)) {
    const email = match.replace(/[.-]+$/, '').toLowerCase()
    if (!email.endsWith('@')) emails.push(email)
  }
  return emails
}

/**
 * Keeps the addresses the events' details quote in `audit_event_emails`: recordAudit for the event
 * it writes, the migration that made the table for the log it found. A few hundred rows a
 * statement, well under either engine's limit of bound values.
 */
export async function keepQuotedEmails(
  db: QueryExecutorProvider,
  events: readonly { id: string; details: string }[],
): Promise<void> {
  const rows = events.flatMap((event) =>
    !event.details.includes('@')
      ? []
      : quotedEmails(JSON.parse(event.details) as AuditDetails).map((email) => ({
          email,
          event_id: event.id,
        })),
  )
  for (let start = 0; start < rows.length; start += 500) {
    const values = rows.slice(start, start + 500).map((row) => sql`(${row.email}, ${row.event_id})`)
    await sql`insert into audit_event_emails (email, event_id) values ${sql.join(values)}`.execute(
      db,
    )
  }
}
