import { isWellFormedToken, newToken, tokenHash } from '../../accounts/tokens'
import type { Db } from '../../db/database'

/**
 * An admin's mailed link for a person to connect a sign-in provider (docs/single-sign-on.md,
 * "An admin's link"), the provider_link_invitations table. Like the other mailed links
 * (accounts/password-resets.ts, features/email-change/) only the token's SHA-256 is kept, and the
 * token the mail carries is minted at delivery (mail/outbox.ts), so a queued mail or a backup
 * holds no working link. One per person and provider: a newer one takes the older's row, so the
 * older's token (and its mail, if still queued) stops working. Taken once, by a DELETE in the
 * transaction that makes the link.
 */
export const LINK_INVITATION_HOURS = 24

export interface LinkInvitation {
  id: string
  accountId: string
  provider: string
  invitedBy: string
  expiresAt: Date
}

function fromRow(row: {
  id: string
  account_id: string
  provider: string
  invited_by: string
  expires_at: Date
}): LinkInvitation {
  return {
    id: row.id,
    accountId: row.account_id,
    provider: row.provider,
    invitedBy: row.invited_by,
    expiresAt: row.expires_at,
  }
}

/**
 * Keeps the invitation in place of any earlier one for this person and provider (an upsert, so
 * two admins sending at once leave one row, the later); the hash the mail's link is queued with.
 */
export async function putLinkInvitation(
  db: Db,
  invitation: { accountId: string; provider: string; invitedBy: string },
  now: Date,
): Promise<string> {
  const hash = tokenHash(newToken())
  const expiresAt = new Date(now.getTime() + LINK_INVITATION_HOURS * 3_600_000)
  await db
    .insertInto('provider_link_invitations')
    .values({
      id: crypto.randomUUID(),
      account_id: invitation.accountId,
      provider: invitation.provider,
      token_hash: hash,
      invited_by: invitation.invitedBy,
      created_at: now,
      expires_at: expiresAt,
    })
    .onConflict((conflict) =>
      conflict.columns(['account_id', 'provider']).doUpdateSet({
        token_hash: hash,
        invited_by: invitation.invitedBy,
        created_at: now,
        expires_at: expiresAt,
      }),
    )
    .execute()
  return hash
}

/** The hash of a token as the link brings it; undefined for anything that is not one of ours. */
export const invitationHashOf = (token: unknown): string | undefined =>
  typeof token === 'string' && isWellFormedToken(token) ? tokenHash(token) : undefined

/** The live invitation with this token hash: not used, replaced or expired. */
export async function findLinkInvitation(
  db: Db,
  hash: string,
  now: Date,
): Promise<LinkInvitation | undefined> {
  const row = await db
    .selectFrom('provider_link_invitations')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row && fromRow(row)
}

/** Takes the invitation, once: of two callbacks at once, one gets it. */
export async function takeLinkInvitation(
  db: Db,
  hash: string,
  now: Date,
): Promise<LinkInvitation | undefined> {
  const row = await db
    .deleteFrom('provider_link_invitations')
    .where('token_hash', '=', hash)
    .returningAll()
    .executeTakeFirst()
  return row && row.expires_at > now ? fromRow(row) : undefined
}

/**
 * A new token for a live invitation's link, in place of the one whose hash its mail keeps (the
 * outbox's LinkMinter); undefined when the invitation was used, replaced or has expired.
 */
export async function remintLinkInvitation(
  db: Db,
  currentHash: string,
  now: Date,
): Promise<{ token: string; tokenHash: string } | undefined> {
  const token = newToken()
  const result = await db
    .updateTable('provider_link_invitations')
    .set({ token_hash: tokenHash(token) })
    .where('token_hash', '=', currentHash)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1 ? { token, tokenHash: tokenHash(token) } : undefined
}

/** Invitations nobody used (the hourly housekeeping, server/built-in-api.ts). */
export async function pruneLinkInvitations(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('provider_link_invitations').where('expires_at', '<=', now).execute()
}
