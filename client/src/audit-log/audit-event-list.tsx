import { useEffect, useRef } from 'react'
import { Link } from 'react-router-dom'
import type { AuditEvent, AuditParty } from '../../../common/api/audit'
import { auditEventWords, type AuditEventWords } from '../../../common/audit-event-words'
import { pageProviderLabels } from './provider-labels'
import { staffAccountPath } from '../routing/paths'
import { formatDateTime } from '../ui/format-date'

/** A person, linked to their account's page; `unnamed` when the event names nobody. */
function Party({ party, unnamed }: { party: AuditParty | null; unnamed: string }) {
  if (!party) return <>{unnamed}</>
  return (
    <Link to={staffAccountPath(party.id)} title={party.email}>
      {party.name || party.email}
    </Link>
  )
}

/**
 * Where from and what else, in words; nothing when there is nothing to say. The browser in a few
 * words, as in the session list; the User-Agent itself is in the CSV. Whole, wrapping between
 * words on a phone (cut with an ellipsis it lost its end, mid-word).
 */
function EventDetails({ event, words }: { event: AuditEvent; words: AuditEventWords }) {
  const said = [event.ip, words.browser, words.details].filter(Boolean).join(' · ')
  if (!said) return null
  return (
    <div className="small text-body-secondary" style={{ overflowWrap: 'break-word' }}>
      {said}
    </div>
  )
}

/**
 * Audit events as a list, one block per event: it reads the same at 360 px and on a wide screen
 * (a seven-column table would scroll sideways on a phone).
 */
export function AuditEventList({
  events,
  label,
  focusAt,
}: {
  events: readonly AuditEvent[]
  label: string
  /**
   * An event to move the keyboard focus to, once shown: the first of those "Carregar mais"
   * brought, so that Tab goes on through the new ones. A new object each time.
   */
  focusAt?: { index: number }
}) {
  const focused = useRef<HTMLLIElement>(null)
  useEffect(() => {
    focused.current?.focus()
  }, [focusAt])
  return (
    <ul className="list-unstyled mb-0" aria-label={label}>
      {events.map((event, index) => {
        // The CSV's words too (server/features/audit/audit-csv.ts): the two say the same.
        const words = auditEventWords(event, pageProviderLabels())
        return (
          <li
            key={event.id}
            className="border-bottom py-2"
            {...(index === focusAt?.index && { ref: focused, tabIndex: -1 })}
          >
            <div className="d-flex flex-wrap gap-2">
              <time dateTime={event.at} className="text-body-secondary">
                {formatDateTime(event.at)}
              </time>
              <strong>{words.what}</strong>
            </div>
            <div>
              <Party party={event.actor} unnamed={words.who} />
              {event.account && event.account.id !== event.actor?.id && (
                <>
                  {' → '}
                  <Party party={event.account} unnamed={words.who} />
                </>
              )}
            </div>
            <EventDetails event={event} words={words} />
          </li>
        )
      })}
    </ul>
  )
}
