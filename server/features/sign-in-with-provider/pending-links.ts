import type { Db } from '../../db/database'
import { isWellFormedToken, newToken, tokenHash } from '../../accounts/tokens'
import type { LinkKey } from './provider-links'
import { PENDING_LINK_TTL_SECONDS } from '../../accounts/pending-link-lifetime'

/**
 * A provider's identity waiting for the account's password (docs/single-sign-on.md, "Linking by
 * password"): the provider claimed an e-mail that has an account but did not vouch for it, so the
 * link waits until the person proves that account with its password (and second factor) once.
 * The identity stays on the server (the pending_provider_links table); the browser that came back
 * from the provider holds only a random token in an HttpOnly cookie, so the link cannot be
 * finished from another browser. 10 minutes (accounts/pending-link-lifetime.ts), taken once
 * (one DELETE … RETURNING), only the token's SHA-256 stored.
 */
export const PENDING_LINK_COOKIE = 'painel_sso_link'
/** The only path the cookie is sent to: the link's two calls (sign-in-with-provider-routes.ts). */
export const PENDING_LINK_COOKIE_PATH = '/api/auth/oidc/link'

export interface PendingLink extends LinkKey {
  accountId: string
  /** SHA-256 of the second-factor challenge the right password opened, if any. */
  challengeHash: string | null
}

const usable = (token: unknown): token is string =>
  typeof token === 'string' && isWellFormedToken(token)

function fromRow(row: {
  account_id: string
  provider: string
  issuer: string
  subject: string
  challenge_hash: string | null
}): PendingLink {
  return {
    accountId: row.account_id,
    provider: row.provider,
    issuer: row.issuer,
    subject: row.subject,
    challengeHash: row.challenge_hash,
  }
}

/** Keeps the identity; the token for the browser's cookie. */
export async function putPendingLink(
  db: Db,
  link: Omit<PendingLink, 'challengeHash'>,
  now: Date,
): Promise<string> {
  const token = newToken()
  await db
    .insertInto('pending_provider_links')
    .values({
      token_hash: tokenHash(token),
      account_id: link.accountId,
      provider: link.provider,
      issuer: link.issuer,
      subject: link.subject,
      challenge_hash: null,
      expires_at: new Date(now.getTime() + PENDING_LINK_TTL_SECONDS * 1000),
    })
    .execute()
  return token
}

/** The pending link of this token, unless unknown, taken or expired. */
export async function findPendingLink(
  db: Db,
  token: unknown,
  now: Date,
): Promise<PendingLink | undefined> {
  if (!usable(token)) return undefined
  const row = await db
    .selectFrom('pending_provider_links')
    .selectAll()
    .where('token_hash', '=', tokenHash(token))
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row && fromRow(row)
}

/**
 * The second-factor challenge a right password opened for this link: only a code for it may
 * finish the link (a newer password try replaces it). False when the link is gone.
 */
export async function bindChallenge(
  db: Db,
  token: string,
  challenge: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('pending_provider_links')
    .set({ challenge_hash: tokenHash(challenge) })
    .where('token_hash', '=', tokenHash(token))
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Takes the pending link, once: of two concurrent finishes one gets it. `challenge`: the link
 * must be bound to it (the second step); null: the account has no second factor.
 */
export async function takePendingLink(
  db: Db,
  token: string,
  challenge: string | null,
  now: Date,
): Promise<PendingLink | undefined> {
  let query = db.deleteFrom('pending_provider_links').where('token_hash', '=', tokenHash(token))
  if (challenge !== null) query = query.where('challenge_hash', '=', tokenHash(challenge))
  const row = await query.returningAll().executeTakeFirst()
  return row && row.expires_at > now ? fromRow(row) : undefined
}

/** Links nobody finished (the hourly housekeeping, server/built-in-api.ts). */
export async function prunePendingLinks(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('pending_provider_links').where('expires_at', '<=', now).execute()
}
