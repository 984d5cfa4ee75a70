import type { CurrentSession, SessionItem } from '../../../common/api/me'
import { party, recordAudit } from '../../audit-log/record-audit'
import { type RequestOrigin } from '../../http/request-origin'
import { endSessions, idleEnd, openSessionsOf } from '../../accounts/sessions'
import type { Db } from '../../db/database'
import type { Account, Session } from '../../db/schema'
import { apiError } from '../../http/errors'

/** "Minha conta" → sessions: what the owner sees of each session, and ending them. */

const iso = (date: Date) => date.toISOString()
const earlier = (a: Date, b: Date) => (a < b ? a : b)

export function currentSession(session: Session, idleSeconds: number): CurrentSession {
  return {
    id: session.id,
    expiresAt: iso(session.expires_at),
    idleExpiresAt: iso(earlier(idleEnd(session, idleSeconds), session.expires_at)),
    idleTimeoutSeconds: idleSeconds,
  }
}

export async function listMySessions(
  db: Db,
  account: Account,
  current: Session,
  idleSeconds: number,
  now: Date,
): Promise<SessionItem[]> {
  const sessions = await openSessionsOf(db, account.id, idleSeconds, now)
  // This one first: it is the one the person is looking from.
  sessions.sort((a, b) => Number(b.id === current.id) - Number(a.id === current.id))
  return sessions.map((session) => ({
    id: session.id,
    current: session.id === current.id,
    createdAt: iso(session.created_at),
    lastSeenAt: iso(session.last_seen_at),
    expiresAt: iso(earlier(idleEnd(session, idleSeconds), session.expires_at)),
    ip: session.ip,
    userAgent: session.browser,
  }))
}

/**
 * Ends one of my sessions by id, or every one but the current; audited with who ended it. A
 * session that is not mine, or no longer open, is a 404 either way: ids are not for probing.
 */
export async function endMySessions(
  db: Db,
  account: Account,
  which: { id: string } | { allBut: string },
  origin: RequestOrigin,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ended = await endSessions(
      trx,
      'id' in which
        ? { accountId: account.id, id: which.id }
        : { accountId: account.id, keepToken: which.allBut },
      'session_revoked',
      now,
    )
    if ('id' in which && ended === 0) throw apiError(404, 'session_not_found', 'not_found')
    if (ended > 0) {
      await recordAudit(trx, {
        type: 'session_ended',
        actor: party(account),
        account: party(account),
        origin,
        details: { sessions: ended, by: 'owner', which: 'id' in which ? 'one' : 'others' },
        at: now,
      })
    }
  })
}
