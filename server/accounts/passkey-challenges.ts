import type { Db } from '../db/database'
import { CHALLENGE_TTL_MS } from './relying-party'

/**
 * The challenges a passkey signs, kept on the server: each is used once (taken in one
 * conditional delete, so two requests cannot both use it), lives 5 minutes, and is bound to
 * what asked for it. Taking one checks the whole binding, so a challenge issued to one session,
 * login or purpose cannot finish another.
 */
export type ChallengeBinding =
  /** Adding a passkey: the account and the session that asked for the options. */
  | { purpose: 'register'; accountId: string; sessionId: string }
  /** A sign-in by passkey alone: bound to nothing (no e-mail is known yet). */
  | { purpose: 'sign_in' }
  /** A passkey as a login's second factor: that account and that login's challenge. */
  | { purpose: 'sign_in'; accountId: string; mfaChallengeHash: string }

const columnsOf = (binding: ChallengeBinding) => ({
  purpose: binding.purpose,
  account_id: 'accountId' in binding ? binding.accountId : null,
  session_id: 'sessionId' in binding ? binding.sessionId : null,
  mfa_challenge_hash: 'mfaChallengeHash' in binding ? binding.mfaChallengeHash : null,
})

/** Keeps a challenge the options just gave out; expired ones go at the same time. */
export async function keepChallenge(
  db: Db,
  challenge: string,
  binding: ChallengeBinding,
  now: Date,
): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute()
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge,
      ...columnsOf(binding),
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
    })
    .execute()
}

/** Uses a challenge up: true only for the one request that finds it unexpired with this binding. */
export async function takeChallenge(
  db: Db,
  challenge: string,
  binding: ChallengeBinding,
  now: Date,
): Promise<boolean> {
  const columns = columnsOf(binding)
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', columns.purpose)
    .where('expires_at', '>', now)
  for (const column of ['account_id', 'session_id', 'mfa_challenge_hash'] as const) {
    const value = columns[column]
    query = value === null ? query.where(column, 'is', null) : query.where(column, '=', value)
  }
  const taken = await query.returning('challenge').executeTakeFirst()
  return taken !== undefined
}

/**
 * The challenge a browser's answer says it signed (clientDataJSON is base64url JSON), or
 * undefined when the answer is not even that shape. The signature over it is checked later.
 */
export function challengeIn(clientDataJSON: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'))
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 128
      ? challenge
      : undefined
  } catch {
    return undefined
  }
}
