import type { SessionEndCode } from '../../common/session-end'
import { idleEndAfter, idleWriteIntervalMs } from '../../common/session-idle'
import type { Db } from '../db/database'
import { deleteInBatches } from '../db/batched-delete'
import type { Account, Session } from '../db/schema'
import { findAccountById } from './accounts'
import { browserName } from '../../common/browser-name'
import { newToken, tokenHash } from './tokens'

/**
 * Sessions: a random token with the client, its hash here. Two limits: an absolute end
 * (SESSION_TTL, `expires_at`) and an idle one (SESSION_IDLE_TIMEOUT after `last_seen_at`, with the
 * slack of common/session-idle.ts).
 * A session someone ends (its owner elsewhere, an admin, a password change, a disabled account)
 * is marked with why rather than deleted, so the next call with its token can say why in its
 * 401; "Sair" deletes the row (the client knows why). Rows go a day after their absolute end.
 */

export interface SessionLimits {
  ttlSeconds: number
  idleSeconds: number
}

/** How long an ended or expired session's row stays to explain a 401. */
const KEEP_ENDED_MS = 86_400_000

/** Why a session ends, as stored: the code its 401 answers with. */
export type EndReason = Exclude<SessionEndCode, 'session_expired' | 'session_idle'>

export interface SessionPlace {
  ip: string | null
  userAgent: string | null
}

/** Opens a session: the token goes to the client, its hash into the database. */
export async function createSession(
  db: Db,
  accountId: string,
  ttlSeconds: number,
  now = new Date(),
  place: SessionPlace = { ip: null, userAgent: null },
  /** A multi-factor sign-in at a provider trusted for it (db/schema.ts's provider_mfa). */
  providerMfa = false,
): Promise<string> {
  const token = newToken()
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash(token),
      id: crypto.randomUUID(),
      account_id: accountId,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
      ip: place.ip,
      browser: browserName(place.userAgent),
      provider_mfa: providerMfa,
    })
    .execute()
  return token
}

export type SessionLookup =
  | { open: true; account: Account; session: Session }
  | { open: false; code: 'unauthenticated' | SessionEndCode }

/** When the session ends if nothing more is done with it. */
export const idleEnd = (session: Pick<Session, 'last_seen_at'>, idleSeconds: number) =>
  new Date(idleEndAfter(session.last_seen_at.getTime(), idleSeconds * 1000))

/** Why a stored session no longer works (null while it does), as its 401 would say. */
export function whyClosed(
  session: Pick<Session, 'ended_at' | 'end_reason' | 'expires_at' | 'last_seen_at'>,
  accountStatus: Account['status'] | undefined,
  idleSeconds: number,
  now: Date,
): 'unauthenticated' | SessionEndCode | null {
  if (session.ended_at !== null)
    return (session.end_reason as EndReason | null) ?? 'session_revoked'
  if (session.expires_at <= now) return 'session_expired'
  if (idleEnd(session, idleSeconds) <= now) return 'session_idle'
  if (accountStatus === undefined) return 'unauthenticated'
  if (accountStatus !== 'active') return 'session_account_disabled'
  return null
}

/** The session and account behind a token, or why there is none. */
export async function lookUpSession(
  db: Db,
  token: string,
  idleSeconds: number,
  now = new Date(),
): Promise<SessionLookup> {
  const session = await db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst()
  if (!session) return { open: false, code: 'unauthenticated' }
  const before = whyClosed(session, 'active', idleSeconds, now)
  if (before) return { open: false, code: before }
  const account = await findAccountById(db, session.account_id)
  const code = whyClosed(session, account?.status, idleSeconds, now)
  if (code || !account) return { open: false, code: code ?? 'unauthenticated' }
  return { open: true, account, session }
}

/** Ids per query: well under SQLite's limit of bound parameters. */
const IDS_PER_QUERY = 500

/**
 * Of the sessions given by id, those that no longer work, with why: one query per 500 sessions,
 * by the unique index on `id` (the open session streams of a replica, a few times a second).
 */
export async function closedAmong(
  db: Db,
  ids: readonly string[],
  idleSeconds: number,
  now = new Date(),
): Promise<Map<string, 'unauthenticated' | SessionEndCode>> {
  const closed = new Map<string, 'unauthenticated' | SessionEndCode>()
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const some = ids.slice(start, start + IDS_PER_QUERY)
    const rows = await db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
      .select([
        'sessions.id',
        'sessions.ended_at',
        'sessions.end_reason',
        'sessions.expires_at',
        'sessions.last_seen_at',
        'accounts.status',
      ])
      .where('sessions.id', 'in', some)
      .execute()
    const found = new Map(rows.map((row) => [row.id, row]))
    for (const id of some) {
      const row = found.get(id)
      // "Sair" deletes the row (and an account's deletion its sessions): unknown from then on.
      const code = row ? whyClosed(row, row.status, idleSeconds, now) : 'unauthenticated'
      if (code) closed.set(id, code)
    }
  }
  return closed
}

/**
 * Slides the idle end: writes `now` as the last use when the written one is an interval old or
 * more (common/session-idle.ts). Conditional on the value read, so concurrent requests of one
 * session write once between them.
 */
export async function touchSession(
  db: Db,
  session: Session,
  idleSeconds: number,
  now = new Date(),
  force = false,
): Promise<Date> {
  const interval = idleWriteIntervalMs(idleSeconds * 1000)
  if (!force && now.getTime() - session.last_seen_at.getTime() < interval) {
    return session.last_seen_at
  }
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('id', '=', session.id)
    .where('last_seen_at', '=', session.last_seen_at)
    .execute()
  return now
}

/** "Sair": the row goes; its token is then simply unknown. */
export async function endSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash(token)).execute()
}

interface Which {
  accountId: string
  /** Only this session (by its id). */
  id?: string
  /** Every one but this (the current session's token). */
  keepToken?: string
}

/** Ends open sessions, keeping why; the number ended. */
export async function endSessions(
  db: Db,
  which: Which,
  reason: EndReason,
  now = new Date(),
): Promise<number> {
  let update = db
    .updateTable('sessions')
    .set({ ended_at: now, end_reason: reason })
    .where('account_id', '=', which.accountId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
  if (which.id !== undefined) update = update.where('id', '=', which.id)
  if (which.keepToken !== undefined)
    update = update.where('token_hash', '<>', tokenHash(which.keepToken))
  const result = await update.executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export const endAllSessions = (db: Db, accountId: string, reason: EndReason, now?: Date) =>
  endSessions(db, { accountId }, reason, now)

export const endOtherSessions = (
  db: Db,
  accountId: string,
  keepToken: string,
  reason: EndReason,
  now?: Date,
) => endSessions(db, { accountId, keepToken }, reason, now)

/** The sessions of an account that still work: not ended, not expired, not idle. */
export async function openSessionsOf(
  db: Db,
  accountId: string,
  idleSeconds: number,
  now = new Date(),
): Promise<Session[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', new Date(now.getTime() - idleEndAfter(0, idleSeconds * 1000)))
    .orderBy('last_seen_at', 'desc')
    .execute()
}

export async function pruneSessions(db: Db, now = new Date()): Promise<void> {
  const ended = new Date(now.getTime() - KEEP_ENDED_MS)
  await deleteInBatches(db, (limit) =>
    db
      .deleteFrom('sessions')
      .where(
        'id',
        'in',
        db.selectFrom('sessions').select('id').where('expires_at', '<=', ended).limit(limit),
      ),
  )
}
