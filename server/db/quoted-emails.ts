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
 * `@` inside, ended by what is not such a character («», a double quote, brackets, blanks, a
 * colon, a comma); a dot that ends a sentence is not part of it. Some of those characters are
 * punctuation in text too (`'`, `=`, `{`, `/`, `+`, `.`), so an address is also read from just
 * after each character of its local part that is not a letter or a digit: `'bia@y.com'`,
 * `email=bia@y.com` and `rh+bia@y.com` all quote bia@y.com. That errs on the side of removing
 * (`ana.bia@y.com` then quotes bia@y.com too), as the search inside the text it replaces did;
 * but `ana@x.com` is not in `joana@x.com` nor in `ana@x.com.br`, which are other people's. A
 * character outside printable ASCII is recorded as `U+` and four to six hexadecimal digits
 * (emailAsTyped in common/account-rules.ts); it ends an address too, read each way it can be
 * (`U+200BBEA@X.COM` is an invisible character and bea@x.com, or a longer code point and
 * a@x.com), so that a try with `ana@x.com` and an invisible character after it quotes ana@x.com.
 */
export function quotedEmails(details: AuditDetails): string[] {
  const found = new Set<string>()
  for (const value of Object.values(details)) {
    if (typeof value === 'string') for (const email of emailsIn(value)) found.add(email)
  }
  return [...found]
}

const ADDRESS = /[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9.-]+/gi
/** A code point as emailAsTyped writes it, by each length it may have. */
const WRITTEN_AS_CODE_POINT = [4, 5, 6].map((digits) => new RegExp(`U\\+[0-9A-F]{${digits}}`, 'g'))

function emailsIn(text: string): Set<string> {
  const emails = new Set<string>()
  if (!text.includes('@')) return emails
  const readings = WRITTEN_AS_CODE_POINT.map((codePoint) => text.replace(codePoint, ' ')).filter(
    (reading) => reading !== text,
  )
  if (readings.length === 0) readings.push(text)
  for (const reading of readings) {
    for (const [match] of reading.matchAll(ADDRESS)) {
      const at = match.lastIndexOf('@')
      const local = match.slice(0, at).toLowerCase()
      const domain = match
        .slice(at + 1)
        .replace(/[.-]+$/, '')
        .toLowerCase()
      if (domain === '') continue
      emails.add(`${local}@${domain}`)
      for (let index = 0; index < local.length - 1; index++) {
        if (!/[a-z0-9]/.test(local[index]!)) emails.add(`${local.slice(index + 1)}@${domain}`)
      }
    }
  }
  return emails
}

/** The details' addresses; a row not written as JSON (by hand) is read as it is. */
function quotedIn(details: string): string[] {
  try {
    return quotedEmails(JSON.parse(details) as AuditDetails)
  } catch {
    return [...emailsIn(details)]
  }
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
      : quotedIn(event.details).map((email) => ({
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
