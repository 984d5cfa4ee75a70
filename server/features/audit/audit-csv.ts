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

/** What a field needs looked at: a formula's first character, or a character to quote. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n;]/

export function csvField(value: string): string {
  // Most fields (names, addresses, times) need nothing: one test instead of two.
  if (!NEEDS_CARE.test(value)) return value
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

const pad = (n: number) => (n < 10 ? `0${n}` : String(n))

/** The instants one offset is looked up for: a time zone changes its offset on a quarter hour. */
const BUCKET_MS = 15 * 60_000

/**
 * `2026-11-25 14:03 -03:00`: the minute in a time zone, and the offset that makes it exact. One
 * Intl.DateTimeFormat for the whole export, asked once per quarter hour of the log (the offset
 * holds within one: zones change theirs on the quarter hour), and the rest is arithmetic: an
 * export of a million rows asks it a few tens of thousands of times, not a million.
 */
export class CsvClock {
  private readonly format: Intl.DateTimeFormat
  private readonly offsets = new Map<number, number>()
  private lastBucket = Number.NaN
  private lastOffset = 0
  /** The last minute written, and its text: a log's neighbouring events share their minute. */
  private minute = Number.NaN
  private minuteText = ''

  constructor(timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
  }

  /** The zone's offset from UTC at that instant, in minutes. */
  offsetAt(ms: number): number {
    const bucket = Math.floor(ms / BUCKET_MS) * BUCKET_MS
    // Neighbouring events share their quarter hour: the map is asked once per quarter, not per row.
    if (bucket === this.lastBucket) return this.lastOffset
    let offset = this.offsets.get(bucket)
    if (offset === undefined) {
      const parts = Object.fromEntries(
        this.format.formatToParts(new Date(bucket)).map((part) => [part.type, part.value]),
      )
      const local = Date.UTC(
        Number(parts.year),
        Number(parts.month) - 1,
        Number(parts.day),
        Number(parts.hour),
        Number(parts.minute),
        Number(parts.second),
      )
      offset = Math.round((local - bucket) / 60_000)
      this.offsets.set(bucket, offset)
    }
    this.lastBucket = bucket
    this.lastOffset = offset
    return offset
  }

  time(at: Date): string {
    const ms = at.getTime()
    const minute = Math.floor(ms / 60_000)
    if (minute === this.minute) return this.minuteText
    const offset = this.offsetAt(ms)
    const local = new Date(ms + offset * 60_000)
    const sign = offset < 0 ? '-' : '+'
    const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
    this.minute = minute
    this.minuteText =
      `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
      `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())} ${zone}`
    return this.minuteText
  }
}

/** `2026-11-25 14:03 -03:00` for one instant (a clock of its own: for a line or two). */
export function csvTime(iso: string, timeZone: string): string {
  return new CsvClock(timeZone).time(new Date(iso))
}

/** The first line: the byte-order mark and the headers. */
export const CSV_HEAD = BOM + HEADER.join(SEPARATOR) + '\r\n'

/** One event as a line of the CSV, with its line end, in the words of the screen. */
export function csvLine(event: AuditEvent, clock: CsvClock, labels: ProviderLabels): string {
  const words = auditEventWords(event, labels)
  return (
    [
      clock.time(new Date(event.at)),
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
      .join(SEPARATOR) + '\r\n'
  )
}

/**
 * Lines joined into pieces of at most `maxChars` characters (a longer line is a piece of its
 * own; no line is split), for writing a large export a piece at a time (audit-routes.ts says why
 * the size matters).
 */
export function* inPieces(lines: Iterable<string>, maxChars: number): Generator<string> {
  let piece = ''
  for (const line of lines) {
    if (piece !== '' && piece.length + line.length > maxChars) {
      yield piece
      piece = ''
    }
    piece += line
  }
  if (piece !== '') yield piece
}
