import type { Db } from '../db/database'
import { newToken, tokenHash } from './tokens'

/** How long a mailed reset link works. */
export const RESET_TTL_SECONDS = 30 * 60

/**
 * A new reset link for the account. Only the newest link works: issuing one voids the others,
 * so an old mail found later in an inbox opens nothing.
 */
export async function createPasswordReset(
  db: Db,
  accountId: string,
  now = new Date(),
): Promise<string> {
  return db.transaction().execute((trx) => issuePasswordReset(trx, accountId, now))
}

/**
 * createPasswordReset's work inside a transaction the caller holds (an admin's reset link is
 * written with its audit event): voids the account's other links and returns the new token.
 */
export async function issuePasswordReset(
  trx: Db,
  accountId: string,
  now = new Date(),
): Promise<string> {
  const token = newToken()
  await voidPasswordResets(trx, accountId)
  await trx
    .insertInto('password_resets')
    .values({
      token_hash: tokenHash(token),
      account_id: accountId,
      expires_at: new Date(now.getTime() + RESET_TTL_SECONDS * 1000),
      used_at: null,
    })
    .execute()
  return token
}

/**
 * A new token for a live (unused, unexpired) link, in place of the one with this hash; the link
 * keeps its account and expiry. The mail outbox gives a link its token at each delivery
 * (LINK_TOKEN_MARK in server/mail/outbox.ts), so no stored mail holds one that works. Undefined
 * when the link no longer works.
 */
export async function remintPasswordReset(
  trx: Db,
  currentHash: string,
  now = new Date(),
): Promise<{ token: string; tokenHash: string } | undefined> {
  const token = newToken()
  const result = await trx
    .updateTable('password_resets')
    .set({ token_hash: tokenHash(token) })
    .where('token_hash', '=', currentHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n ? { token, tokenHash: tokenHash(token) } : undefined
}

/** The account a live (unused, unexpired) reset token is for, without using it. */
export async function passwordResetAccount(
  db: Db,
  token: string,
  now = new Date(),
): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select('account_id')
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row?.account_id
}

/**
 * Uses a reset token up: the account it was for, or undefined when it is unknown, used or
 * expired. One UPDATE does check and use together, so two requests cannot both use one token.
 */
export async function usePasswordReset(
  db: Db,
  token: string,
  now = new Date(),
): Promise<string | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('account_id')
    .executeTakeFirst()
  return row?.account_id
}

/** Voids every outstanding link of the account: after a reset, a password change, a newer link. */
export async function voidPasswordResets(db: Db, accountId: string): Promise<void> {
  await db
    .deleteFrom('password_resets')
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .execute()
}

export async function prunePasswordResets(db: Db, now = new Date()): Promise<void> {
  await db
    .deleteFrom('password_resets')
    .where((where) => where.or([where('expires_at', '<=', now), where('used_at', 'is not', null)]))
    .execute()
}
