import type { AuditEvent } from '../../../common/api/audit'
import { auditEventWords } from '../../../common/audit-event-words'
import type { ProviderLabels } from '../../../common/provider-labels'

/**
 * The audit log as CSV for spreadsheet programs, as a person in Brazil opens it: fields separated
 * by `;` (Excel with Brazilian settings reads `,` as the decimal comma and puts a whole line in
 * one column), pt-BR headers, each event in the words of the Auditoria screen
 * (common/audit-event-words.ts: who did it, the browser in words, providers by their labels),
 * the User-Agent as sent last for whoever investigates, and times in the viewer's time zone with the offset written, so the file and the screen agree to the minute.
 * UTF-8 with a byte-order mark (without it Excel reads the accents as Latin-1), CRLF line ends,
 * and every field that a spreadsheet would run as a formula (starting with =, +, -, @, tab or
 * carriage return) prefixed with an apostrophe, as OWASP advises: a name like `=HYPERLINK(...)`
 * chosen at registration must stay text.
 */

const BOM = '\uFEFF'
const SEPARATOR = ';'
const HEADER = [
  'Quando',
  'Evento',
  'Quem fez',
  'E-mail de quem fez',
  'Conta',
  'E-mail da conta',
  'Endereço',
  'Navegador',
  'Detalhes',
  'User-Agent',
]

export function csvField(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n;]/.test(neutral) ? `"${neutral.replace(/"/g, '""')}"` : neutral
}

/** Whether the runtime knows this IANA zone name (America/Sao_Paulo, UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** `2026-11-25 14:03 -03:00`: the minute in that zone, and the offset that makes it exact. */
export function csvTime(iso: string, timeZone: string): string {
  const at = new Date(iso)
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  )
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  )
  const offset = Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000)
  const sign = offset < 0 ? '-' : '+'
  const pad = (n: number) => String(n).padStart(2, '0')
  const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${zone}`
}

/** One event's line, without its line end. */
export function auditCsvLine(event: AuditEvent, timeZone: string, labels: ProviderLabels): string {
  const words = auditEventWords(event, labels)
  return [
    csvTime(event.at, timeZone),
    words.what,
    words.who,
    event.actor?.email ?? '',
    event.account?.name ?? '',
    event.account?.email ?? '',
    event.ip ?? '',
    words.browser,
    words.details,
    event.userAgent ?? '',
  ]
    .map(csvField)
    .join(SEPARATOR)
}

export function auditCsv(
  events: readonly AuditEvent[],
  timeZone: string,
  labels: ProviderLabels,
): string {
  const lines = [HEADER.join(SEPARATOR)]
  for (const event of events) lines.push(auditCsvLine(event, timeZone, labels))
  return BOM + lines.join('\r\n') + '\r\n'
}
