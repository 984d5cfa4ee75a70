import type { Db } from '../db/database'
import { newToken, tokenHash } from './tokens'

/**
 * Browsers that signed in to an account before (OWASP's "device cookies"). Each successful
 * sign-in gives the browser a new random token in an HttpOnly, SameSite=Strict cookie scoped to
 * /api/auth; the database keeps its hash and the account. A sign-in that brings a token of the
 * same account is counted against that device only, so guesses from elsewhere never keep the
 * owner out.
 */
export const DEVICE_COOKIE = 'painel_device'
export const DEVICE_TTL_SECONDS = 180 * 24 * 60 * 60

/** Whether the token is a live trusted device of this account. */
export async function isTrustedDevice(
  db: Db,
  token: string,
  accountId: string,
  now = new Date(),
): Promise<boolean> {
  const row = await db
    .selectFrom('trusted_devices')
    .select('token_hash')
    .where('token_hash', '=', tokenHash(token))
    .where('account_id', '=', accountId)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row !== undefined
}

/** A new token for the browser; the one it brought (if any) is retired, so a copy stops working. */
export async function trustDevice(
  db: Db,
  accountId: string,
  previous: string | undefined,
  now = new Date(),
): Promise<string> {
  const token = newToken()
  if (previous !== undefined) {
    await db.deleteFrom('trusted_devices').where('token_hash', '=', tokenHash(previous)).execute()
  }
  await db
    .insertInto('trusted_devices')
    .values({
      token_hash: tokenHash(token),
      account_id: accountId,
      expires_at: new Date(now.getTime() + DEVICE_TTL_SECONDS * 1000),
    })
    .execute()
  return token
}

export async function pruneTrustedDevices(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom('trusted_devices').where('expires_at', '<=', now).execute()
}
