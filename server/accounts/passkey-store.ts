import type { Selectable } from 'kysely'
import type { Passkey } from '../../common/api/me'
import type { Db } from '../db/database'
import type { PasskeysTable } from '../db/schema'

/** An account's passkeys in the database: the public half of each key, never a secret. */
export type StoredPasskey = Selectable<PasskeysTable>

/** How the API shows a passkey (no key material). */
export const publicPasskey = (row: StoredPasskey): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
})

/** The transports the browser reported, as @simplewebauthn wants them back. */
export const transportsOf = (row: StoredPasskey): string[] => {
  try {
    const parsed: unknown = JSON.parse(row.transports)
    return Array.isArray(parsed) ? parsed.filter((item) => typeof item === 'string') : []
  } catch {
    return []
  }
}

/** PostgreSQL hands a bigint back as text. */
export const counterOf = (row: StoredPasskey) => Number(row.counter)

export function listPasskeys(db: Db, accountId: string): Promise<StoredPasskey[]> {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

export function findPasskeyByCredential(
  db: Db,
  credentialId: string,
): Promise<StoredPasskey | undefined> {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('credential_id', '=', credentialId)
    .executeTakeFirst()
}

/** Stores a new passkey; undefined when its credential id is taken already (by anyone). */
export async function insertPasskey(
  db: Db,
  fields: {
    accountId: string
    credentialId: string
    publicKey: Uint8Array
    counter: number
    transports: string[]
    name: string
    now: Date
  },
): Promise<StoredPasskey | undefined> {
  return db
    .insertInto('passkeys')
    .values({
      id: crypto.randomUUID(),
      account_id: fields.accountId,
      credential_id: fields.credentialId,
      public_key: Buffer.from(fields.publicKey).toString('base64url'),
      counter: fields.counter,
      transports: JSON.stringify(fields.transports),
      name: fields.name,
      created_at: fields.now,
      last_used_at: null,
    })
    .onConflict((conflict) => conflict.column('credential_id').doNothing())
    .returningAll()
    .executeTakeFirst()
}

export function renamePasskey(
  db: Db,
  accountId: string,
  id: string,
  name: string,
): Promise<StoredPasskey | undefined> {
  return db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst()
}

export function deletePasskey(
  db: Db,
  accountId: string,
  id: string,
): Promise<StoredPasskey | undefined> {
  return db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Records a use: the authenticator's new signature counter and the time. Conditional on the
 * counter read before the check, so of two uses racing with the same count only one counts.
 */
export async function recordPasskeyUse(
  db: Db,
  passkey: StoredPasskey,
  newCounter: number,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .updateTable('passkeys')
    .set({ counter: newCounter, last_used_at: now })
    .where('id', '=', passkey.id)
    .where('counter', '=', counterOf(passkey))
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}
