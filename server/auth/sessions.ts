import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import { newToken, tokenHash } from './tokens'

/** Opens a session: the token goes to the client, its hash into the database. */
export async function createSession(
  db: Db,
  accountId: string,
  ttlSeconds: number,
  now = new Date(),
): Promise<string> {
  const token = newToken()
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash(token),
      account_id: accountId,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute()
  return token
}

/** The account behind a token, if its session is open and the account may still sign in. */
export async function accountForToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<Account | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .selectAll('accounts')
    .where('sessions.token_hash', '=', tokenHash(token))
    .where('sessions.expires_at', '>', now)
    .where('accounts.status', '=', 'active')
    .executeTakeFirst()
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash(token)).execute()
}

export async function endAllSessions(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', accountId).execute()
}

export async function endOtherSessions(
  db: Db,
  accountId: string,
  keepToken: string,
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('account_id', '=', accountId)
    .where('token_hash', '<>', tokenHash(keepToken))
    .execute()
}

export async function pruneSessions(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute()
}
