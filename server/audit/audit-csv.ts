import type { AuditEvent } from '../../common/api/audit'

/**
 * The audit log as CSV for spreadsheet programs: UTF-8 with a byte-order mark (without it Excel
 * reads the accents as Latin-1), CRLF line ends, and every field that a spreadsheet would run as
 * a formula (starting with =, +, -, @, tab or carriage return) prefixed with an apostrophe, as
 * OWASP advises: a name like `=HYPERLINK(...)` chosen at registration must stay text.
 */

const BOM = '\uFEFF'
const HEADER = [
  'quando',
  'tipo',
  'autor',
  'autor_email',
  'conta',
  'conta_email',
  'endereco',
  'navegador',
  'detalhes',
]

export function csvField(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n;]/.test(neutral) ? `"${neutral.replace(/"/g, '""')}"` : neutral
}

export function auditCsv(events: readonly AuditEvent[], typeName: (type: string) => string) {
  const lines = [HEADER.join(',')]
  for (const event of events) {
    lines.push(
      [
        event.at,
        typeName(event.type),
        event.actor?.name ?? '',
        event.actor?.email ?? '',
        event.account?.name ?? '',
        event.account?.email ?? '',
        event.ip ?? '',
        event.userAgent ?? '',
        Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : '',
      ]
        .map(csvField)
        .join(','),
    )
  }
  return BOM + lines.join('\r\n') + '\r\n'
}
