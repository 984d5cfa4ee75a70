import type { Db } from '../../db/database'

/**
 * Who a person is at a sign-in provider (the provider_links table, db/migrations.ts): after the
 * first link, a sign-in finds its account by (provider, subject) from the issuer that vouched for
 * it, never again by e-mail.
 */
export interface LinkKey {
  provider: string
  issuer: string
  subject: string
}

export interface ProviderLinkRow {
  id: string
  provider: string
  subject: string
  linkedAt: Date
  lastUsedAt: Date | null
}

/** The account linked to this subject, with the link's id. */
export async function findLink(
  db: Db,
  key: LinkKey,
): Promise<{ linkId: string; accountId: string } | undefined> {
  const row = await db
    .selectFrom('provider_links')
    .select(['id', 'account_id'])
    .where('provider', '=', key.provider)
    .where('subject', '=', key.subject)
    .where('issuer', '=', key.issuer)
    .executeTakeFirst()
  return row && { linkId: row.id, accountId: row.account_id }
}

/**
 * Links the subject to the account; false when the subject is linked already (to this account or
 * another: the unique (provider, subject) settles two callbacks at once).
 */
export async function addLink(
  db: Db,
  key: LinkKey,
  accountId: string,
  now: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('provider_links')
    // Linked by a sign-in there: that sign-in is its first use.
    .values({
      id: crypto.randomUUID(),
      ...key,
      account_id: accountId,
      linked_at: now,
      last_used_at: now,
    })
    .onConflict((conflict) => conflict.columns(['provider', 'subject']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export async function touchLink(db: Db, linkId: string, now: Date): Promise<void> {
  await db
    .updateTable('provider_links')
    .set({ last_used_at: now })
    .where('id', '=', linkId)
    .execute()
}

export async function linksOf(db: Db, accountId: string): Promise<ProviderLinkRow[]> {
  const rows = await db
    .selectFrom('provider_links')
    .select(['id', 'provider', 'subject', 'linked_at', 'last_used_at'])
    .where('account_id', '=', accountId)
    .orderBy('linked_at')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    subject: row.subject,
    linkedAt: row.linked_at,
    lastUsedAt: row.last_used_at,
  }))
}
