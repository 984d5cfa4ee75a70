import type { Db } from '../db/database'
import { newToken, tokenHash } from './tokens'

/**
 * The step between a right password and a second factor: an opaque token the client sends back
 * with a code, valid 5 minutes, for 5 codes, used once. Only its hash is stored.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000
export const CHALLENGE_TRIES = 5

export async function issueMfaChallenge(db: Db, accountId: string, now: Date): Promise<string> {
  const token = newToken()
  await db
    .insertInto('mfa_challenges')
    .values({
      token_hash: tokenHash(token),
      account_id: accountId,
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
      tries: 0,
      used_at: null,
    })
    .execute()
  return token
}

/**
 * Counts one try of a challenge, in one conditional write (concurrent tries cannot exceed 5):
 * the account it is for, or undefined when it is unknown, used, expired or out of tries.
 */
export async function tryMfaChallenge(
  db: Db,
  token: string,
  now: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable('mfa_challenges')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('tries', '<', CHALLENGE_TRIES)
    .returning('account_id')
    .executeTakeFirst()
  return row?.account_id
}

/** The account of a usable challenge, without counting a try (for passkey options). */
export async function peekMfaChallenge(
  db: Db,
  token: string,
  now: Date,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('mfa_challenges')
    .select('account_id')
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('tries', '<', CHALLENGE_TRIES)
    .executeTakeFirst()
  return row?.account_id
}

/** Marks the challenge used; false when another request used it first. */
export async function finishMfaChallenge(db: Db, token: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('mfa_challenges')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function pruneMfaChallenges(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('expires_at', '<=', now).execute()
}
