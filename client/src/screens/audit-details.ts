import type { AuditEvent } from '../../../common/api/audit'
import { adminMessages } from '../messages-admin'
import { auditEventMessages } from '../messages-audit-events'

const text = auditEventMessages.details

/** A status or role code in words; anything else as it is. */
const valueName = (value: unknown): string => {
  const key = String(value)
  return (
    (adminMessages.statuses as Record<string, string>)[key] ??
    (adminMessages.roles as Record<string, string>)[key] ??
    key
  )
}

/**
 * An event's details as a person reads them, in pt-BR: "de Ativa para Desativada", "com senha",
 * "2 sessões encerradas". The log keeps keys and codes (`from: active`); keys this screen does
 * not know still show, as `key: value`.
 */
export function auditDetailsText(details: AuditEvent['details']): string {
  const { from, to, ...rest } = details
  const parts: string[] = []
  const change = from !== undefined && to !== undefined
  if (change) parts.push(text.change(valueName(from), valueName(to)))
  for (const [key, value] of Object.entries(change ? rest : details)) {
    if (key === 'method') parts.push(text.method[String(value)] ?? String(value))
    else if (key === 'sessions' && typeof value === 'number') parts.push(text.sessions(value))
    else if (key === 'by') parts.push(text.by[String(value)] ?? String(value))
    else if (key === 'reason') parts.push(`${text.reason}: ${String(value)}`)
    else if (key === 'role') parts.push(`${text.role}: ${valueName(value)}`)
    else if (key === 'email') parts.push(`${text.email}: ${String(value)}`)
    else parts.push(`${key}: ${String(value)}`)
  }
  return parts.join(' · ')
}
