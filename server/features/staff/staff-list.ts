import { sql } from 'kysely'
import {
  STAFF_PAGE_SIZE,
  type StaffItem,
  type StaffList,
  type StaffQuery,
} from '../../../common/api/staff'
import type { Db } from '../../db/database'
import { bytewise, engineOf } from '../../db/portable-sql'
import { isOpenInvitation, openInvitationSql } from '../../accounts/accounts'
import type { Access } from '../../../common/api/roles'
import { outrankingRoles } from '../../roles/rank'
import { reachableSql } from '../../roles/team-scope'
import { lockedExpression } from './lock-state'

/** Whether the account has a second factor: a confirmed authenticator app or a passkey. */
const hasMfa = sql<boolean>`(exists (select 1 from totp_factors where totp_factors.account_id = accounts.id and totp_factors.confirmed_at is not null) or exists (select 1 from passkeys where passkeys.account_id = accounts.id))`

/** `like` matches these literally only when escaped. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The accounts, with what the list shows of each: last sign-in (from the audit log) and lock. */
export function staffRows(db: Db) {
  return db
    .selectFrom('accounts')
    .leftJoin(
      (join) =>
        join
          .selectFrom('audit_events')
          .select(['account_id', (eb) => eb.fn.max('at').as('last_at')])
          .where('type', '=', 'sign_in')
          .groupBy('account_id')
          .as('last_sign_in'),
      (join) => join.onRef('last_sign_in.account_id', '=', 'accounts.id'),
    )
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .leftJoin('teams', 'teams.id', 'accounts.team_id')
    .select([
      'accounts.id',
      'accounts.name',
      'accounts.email',
      'accounts.role',
      'accounts.role_id',
      'roles.name as role_name',
      'accounts.team_id',
      'teams.name as team_name',
      'accounts.status',
      'accounts.created_at',
      'accounts.invitation_expires_at',
      'last_sign_in.last_at',
      sql<boolean>`${lockedExpression()}`.as('locked'),
      hasMfa.as('mfa'),
    ])
}

type StaffRow = Awaited<ReturnType<ReturnType<typeof staffRows>['executeTakeFirstOrThrow']>>

/** An item of the list; `outranking`: the roles whose holders outrank the viewer (roles/rank.ts). */
export function toStaffItem(row: StaffRow, outranking: ReadonlySet<string>): StaffItem {
  const invitation = row.invitation_expires_at === null ? null : new Date(row.invitation_expires_at)
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    roleId: row.role_id,
    roleName: row.role_name,
    teamId: row.team_id,
    teamName: row.team_name,
    status: isOpenInvitation(row) ? 'invited' : row.status,
    invitationExpiresAt: invitation && invitation.toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    // max() has no column type, so SQLite answers the stored text: a Date either way here.
    lastSignInAt:
      row.last_at === null || row.last_at === undefined
        ? null
        : new Date(row.last_at).toISOString(),
    // PostgreSQL answers a boolean, SQLite 0 or 1.
    locked: Boolean(row.locked),
    mfa: Boolean(row.mfa),
    outranksYou: outranking.has(row.role_id),
  }
}

/**
 * One account as the list shows it to this viewer, whose reach the caller has checked (its page,
 * or the answer to a change they made).
 */
export async function findStaffItem(
  db: Db,
  id: string,
  viewer: Access,
): Promise<StaffItem | undefined> {
  const row = await staffRows(db).where('accounts.id', '=', id).executeTakeFirst()
  return row && toStaffItem(row, await outrankingRoles(db, [row.role_id], viewer))
}

/** One page of the Equipe list: searched, filtered and sorted in the database. */
export async function listStaff(db: Db, query: StaffQuery, access: Access): Promise<StaffList> {
  const page = Number(query.page ?? 1)
  const pageSize = Number(query.pageSize ?? STAFF_PAGE_SIZE)
  let rows = staffRows(db).where(reachableSql(access))
  const q = query.q?.trim()
  if (q) {
    const pattern = likePattern(q)
    rows = rows.where(
      sql<boolean>`(lower(accounts.name) like ${pattern} escape '\\' or lower(accounts.email) like ${pattern} escape '\\')`,
    )
  }
  if (query.status === 'invited') rows = rows.where(openInvitationSql)
  else if (query.status === 'active') {
    rows = rows
      .where('accounts.status', '=', 'active')
      .where(sql<boolean>`not ${openInvitationSql}`)
  } else if (query.status) rows = rows.where('accounts.status', '=', query.status)
  if (query.role) rows = rows.where('accounts.role', '=', query.role)
  if (query.roleId) rows = rows.where('accounts.role_id', '=', query.roleId.toLowerCase())
  if (query.teamId === 'none') rows = rows.where('accounts.team_id', 'is', null)
  else if (query.teamId) rows = rows.where('accounts.team_id', '=', query.teamId.toLowerCase())
  if (query.locked) {
    rows = rows.where(
      query.locked === 'true' ? lockedExpression() : sql<boolean>`not ${lockedExpression()}`,
    )
  }
  if (query.mfa) rows = rows.where(query.mfa === 'true' ? hasMfa : sql<boolean>`not ${hasMfa}`)

  const { total } = await rows
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow()

  let sorted = rows
  const sort = query.sort
  // Portuguese order (common/name-order.ts): the stored sort key, then the name itself, both
  // byte by byte so that SQLite and PostgreSQL agree, and the id last: a total order, so a
  // page boundary never repeats or skips anyone.
  const engine = engineOf(db)
  const byName = (direction: 'asc' | 'desc') =>
    sorted
      .orderBy(bytewise(engine, 'accounts.name_sort_key'), direction)
      .orderBy(bytewise(engine, 'accounts.name'), direction)
  if (!sort) {
    sorted = sorted.orderBy(sql`case when accounts.status = 'pending' then 0 else 1 end`)
    sorted = byName('asc')
  } else {
    const direction = sort.startsWith('-') ? 'desc' : 'asc'
    const key = sort.replace('-', '')
    if (key === 'name') sorted = byName(direction)
    else if (key === 'createdAt') sorted = sorted.orderBy('accounts.created_at', direction)
    else {
      // Never signed in sorts last either way.
      sorted = sorted
        .orderBy(sql`case when last_sign_in.last_at is null then 1 else 0 end`)
        .orderBy('last_sign_in.last_at', direction)
    }
  }
  const items = await sorted
    .orderBy('accounts.id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()
  // The page's roles in one read, not one per person.
  const outranking = await outrankingRoles(
    db,
    items.map((row) => row.role_id),
    access,
  )
  return {
    items: items.map((row) => toStaffItem(row, outranking)),
    total: Number(total),
    page,
    pageSize,
  }
}
