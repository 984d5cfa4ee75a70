import { sql } from 'kysely'
import type { Db } from '../db/database'
import type { AccountStatus, PublicUser, Role } from '../../common/account-rules'
import type { Account } from '../db/schema'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { builtInRoleId, roleColumns } from '../db/role-columns'
import { nameColumns } from '../db/name-columns'

export type { PublicUser }

export function publicUser(account: Account): PublicUser {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    role: account.role,
    status: account.status,
    createdAt: account.created_at.toISOString(),
  }
}

/**
 * An invitation not yet taken up (db/schema.ts): an active account whose person has set no
 * password of their own yet, so its `invitation_expires_at` is still set (a password of one's own
 * clears it: setPasswordHash). Shown as 'invited' rather than 'active'.
 */
export function isOpenInvitation(
  account: Pick<Account, 'status' | 'invitation_expires_at'>,
): boolean {
  return account.status === 'active' && account.invitation_expires_at !== null
}

/** isOpenInvitation as a condition on the `accounts` row. */
export const openInvitationSql = sql<boolean>`(accounts.status = 'active'
  and accounts.invitation_expires_at is not null)`

/** The status the panel shows for an `accounts` row: 'invited' for an open invitation. */
export const shownStatusSql = sql<string>`case when ${openInvitationSql} then 'invited'
  else accounts.status end`

export function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst()
}

export function findAccountById(db: Db, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Creates the account unless the e-mail is taken; returns it, or undefined when it was taken. */
export function createAccount(
  db: Db,
  fields: {
    name: string
    email: string
    passwordHash: string
    /** The old name of a built-in role; `roleId` names any role and wins. */
    role: Role
    roleId?: string
    teamId?: string | null
    status: AccountStatus
  },
): Promise<Account | undefined> {
  return db
    .insertInto('accounts')
    .values({
      id: crypto.randomUUID(),
      ...nameColumns(fields.name),
      email: fields.email,
      password_hash: fields.passwordHash,
      ...roleColumns(fields.roleId ?? builtInRoleId(fields.role)),
      team_id: fields.teamId ?? null,
      status: fields.status,
    })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returningAll()
    .executeTakeFirst()
}

export async function setPasswordHash(db: Db, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('accounts')
    // A password of one's own ends an invitation: the account is simply active from now on.
    .set({ password_hash: passwordHash, invitation_expires_at: null, updated_at: new Date() })
    .where('id', '=', id)
    .execute()
}

/** Pending accounts first (they wait for someone), then by name. */
export function listAccounts(db: Db): Promise<Account[]> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .orderBy((order) => order.case().when('status', '=', 'pending').then(0).else(1).end())
    .orderBy('name')
    .execute()
}

/**
 * A registration: a pending staff account, unless the e-mail is taken. Either way the statement
 * writes one row (a taken e-mail's row is rewritten as it is), so both cases cost the same write
 * and a registration's answer time does not tell whether an e-mail has an account. Returns the
 * new account, or undefined when the e-mail was taken.
 */
export async function registerAccount(
  db: Db,
  fields: { name: string; email: string; passwordHash: string; teamId?: string | null },
): Promise<Account | undefined> {
  const id = crypto.randomUUID()
  const row = await db
    .insertInto('accounts')
    .values({
      id,
      ...nameColumns(fields.name),
      email: fields.email,
      password_hash: fields.passwordHash,
      ...roleColumns(BUILT_IN_ROLE_IDS.staff),
      team_id: fields.teamId ?? null,
      status: 'pending',
    })
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet((eb) => ({ email: eb.ref('accounts.email') })),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
  return row.id === id ? row : undefined
}
