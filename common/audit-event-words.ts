import type { AuditEvent } from './api/audit'
import { auditDetailsText } from './audit-details'
import { auditTypeNames } from './audit-type-names'
import type { ProviderLabels } from './provider-labels'

/**
 * One audit event in the words a person reads, the same on the Auditoria screen, an account's
 * page, Início (client/src/audit-log/audit-event-list.tsx) and in the CSV
 * (server/features/audit/audit-csv.ts): the CSV says what the screen says because both take
 * their words from here.
 */
export interface AuditEventWords {
  /** "Entrou", "Nome alterado". */
  what: string
  /** Who did it: a person's name (their e-mail when they have none), or who else it was. */
  who: string
  /**
   * The browser in a few words ("Chrome no Linux"), '' when none was recorded: the event's
   * `browser`, which the server reads from its User-Agent with common/browser-name.ts whether
   * the event goes to the screen or into the CSV (server/audit-log/audit-query.ts).
   */
  browser: string
  /** The details as a sentence part, '' when there is nothing to say. */
  details: string
}

/** Who did an event that names no person: an attempt to get in by someone unknown, or the panel. */
export const NOBODY_KNOWN = 'Alguém'
export const THE_PANEL = 'Sistema'

/**
 * An event without an actor: a failed sign-in whose e-mail, passkey or provider identity is
 * nobody's account was tried by someone the panel does not know ("Alguém"; its details say with
 * what, and which provider); anything else it did itself (an old "notice_sent").
 */
export function unnamedActor(event: Pick<AuditEvent, 'type'>): string {
  return event.type === 'sign_in_failed' ? NOBODY_KNOWN : THE_PANEL
}

export function auditEventWords(event: AuditEvent, labels: ProviderLabels): AuditEventWords {
  return {
    what: auditTypeNames[event.type] ?? event.type,
    who: event.actor ? event.actor.name || event.actor.email : unnamedActor(event),
    browser: event.browser ?? '',
    details: auditDetailsText(event.type, event.details, labels),
  }
}
