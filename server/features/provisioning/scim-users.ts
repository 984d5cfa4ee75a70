import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { normalizeAccountId } from '../../../common/account-id'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import {
  lockAccountForChange,
  writeAccountChangeWithin,
  type AccountChange,
} from '../../accounts/account-administration'
import { nameColumns } from '../../db/name-columns'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import type { Db } from '../../db/database'
import { engineOf } from '../../db/portable-sql'
import type { Account } from '../../db/schema'
import { requestOrigin } from '../../http/request-origin'
import { roleColumns } from '../../db/role-columns'
import type { Filter } from './filter-syntax'
import { filterToSql } from './filter-to-sql'
import { ifMatchAllows } from './resource-version'
import { ScimError } from './scim-error'
import { tokenParty } from './scim-token-guard'
import type { Page } from './list-response'
import { userFields, type UserFields } from './user-input'
import { userResource, type ScimResource, type UserRecord } from './user-resource'
import { USER } from './user-schema'
import { userSqlAttributes } from './user-sql-attributes'

/**
 * The Users of /scim/v2 over `accounts` (RFC 7644 §3): every account the directory has not
 * deleted (scim_removed_at), whoever made it (an invited or registered person is found by
 * `userName eq`, as a directory looks before it creates). Each change is one transaction that
 * locks the account first (accounts/account-administration.ts: the admins, then the account),
 * reads it, checks If-Match against what it read, and writes: two PATCHes at once are one after
 * the other, and the second applies to what the first left. The admins' rules hold (the last
 * active Administrador is not disabled); the audit log names the token as who acted.
 */

export const userNotFound = () => new ScimError(404, undefined, 'No such User.')
export const preconditionFailed = () =>
  new ScimError(412, undefined, 'The resource has changed since that version (If-Match).')

type Row = Account & { team_name: string | null }

function userQuery(db: Db) {
  return db
    .selectFrom('accounts')
    .leftJoin('teams', 'teams.id', 'accounts.team_id')
    .selectAll('accounts')
    .select('teams.name as team_name')
    .where('accounts.scim_removed_at', 'is', null)
}

export function recordOf(row: Row): UserRecord {
  return {
    id: row.id.toLowerCase(),
    email: row.email,
    name: row.name,
    active: row.status === 'active',
    externalId: row.scim_external_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    team:
      row.team_id !== null && row.team_name !== null
        ? { id: row.team_id.toLowerCase(), name: row.team_name }
        : null,
  }
}

async function readRow(db: Db, id: string): Promise<Row | undefined> {
  return userQuery(db).where('accounts.id', '=', id).executeTakeFirst()
}

export async function readUser(db: Db, rawId: string, baseUrl: string): Promise<ScimResource> {
  const id = normalizeAccountId(rawId)
  const row = id === null ? undefined : await readRow(db, id)
  if (!row) throw userNotFound()
  return userResource(recordOf(row), baseUrl)
}

/**
 * How many Users SCIM sees, without counting them: every account has its place in
 * account_tallies (db/list-migrations.ts, 4203), and the few the directory deleted are counted
 * along an index of their own (db/provisioning-migrations.ts, 4604). Counting the others read all
 * 100,000 entries of accounts_scim_listed for each page a directory asks for (7 ms of PostgreSQL's
 * 11 for the first page; the scale bench). One statement, so both parts see the same moment.
 */
async function userTotal(db: Db): Promise<number | string> {
  const { rows } = await sql<{ total: number | string }>`select
    (select coalesce(sum(count), 0) from account_tallies)
    - (select count(*) from accounts where scim_removed_at is not null) as total`.execute(db)
  return rows[0]!.total
}

export async function listUsers(
  db: Db,
  filter: Filter | undefined,
  page: Page,
  baseUrl: string,
): Promise<{ total: number; resources: ScimResource[] }> {
  const engine = engineOf(db)
  const where = filter ? filterToSql(USER, filter, userSqlAttributes(engine), engine) : undefined
  const total = where
    ? (
        await db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number | string>().as('total'))
          .where('accounts.scim_removed_at', 'is', null)
          .where(where)
          .executeTakeFirstOrThrow()
      ).total
    : await userTotal(db)
  if (page.count === 0) return { total: Number(total), resources: [] }
  let rows = userQuery(db)
  if (where) rows = rows.where(where)
  // A directory reads every User a page at a time (startIndex), so the people before the page are
  // skipped along accounts_scim_listed, which holds the order alone, and the page is read from
  // its first row: the offset on the page's own query made each skipped row whole (61 ms from
  // 50,000, 140 ms from 99,900, the event loop held on SQLite; by hand on the scale bench's data).
  if (page.offset > 0) {
    let along = db
      .selectFrom('accounts')
      .select(['accounts.created_at', 'accounts.id'])
      .where('accounts.scim_removed_at', 'is', null)
    if (where) along = along.where(where)
    const first = await along
      .orderBy('accounts.created_at')
      .orderBy('accounts.id')
      .limit(1)
      .offset(page.offset)
      .executeTakeFirst()
    if (!first) return { total: Number(total), resources: [] }
    rows = rows.where(
      sql<boolean>`(accounts.created_at, accounts.id) >= (${first.created_at}, ${first.id})`,
    )
  }
  const found = await rows
    .orderBy('accounts.created_at')
    .orderBy('accounts.id')
    .limit(page.count)
    .execute()
  return {
    total: Number(total),
    resources: found.map((row) => userResource(recordOf(row), baseUrl)),
  }
}

/** An audit entry's parties and time: the app's clock (`context.now`), as every change's. */
const audit = (
  request: FastifyRequest,
  account: Pick<Account, 'id' | 'name' | 'email'>,
  at: Date,
) => ({
  actor: tokenParty(request),
  account: party(account),
  origin: requestOrigin(request),
  at,
})

/** A unique-index violation on either engine (a write that raced past the check before it). */
const isUniqueViolation = (caught: unknown) =>
  /unique|duplicate/i.test(String((caught as Error)?.message ?? ''))

const userNameTaken = (email: string) =>
  new ScimError(409, 'uniqueness', `A User with userName "${email}" already exists.`)

/**
 * POST /Users: a new person, active unless `active` says otherwise, with the role Equipe and no
 * team (a Group's membership places them), no password (they sign in through the
 * organisation's provider: docs/provisioning.md), marked as the directory's. A userName taken by
 * an account the directory deleted brings that account back (Entra ID deletes and creates again
 * when a person is re-assigned); taken by any other is 409 uniqueness.
 */
export async function createUser(
  context: Pick<ApiContext, 'db' | 'now'>,
  request: FastifyRequest,
  body: unknown,
  baseUrl: string,
): Promise<ScimResource> {
  const fields = userFields(body)
  const id = await context.db
    .transaction()
    .execute(async (trx) => {
      const at = context.now()
      const existing = await trx
        .selectFrom('accounts')
        .select(['id', 'scim_removed_at'])
        .where('email', '=', fields.email)
        .executeTakeFirst()
      if (existing && existing.scim_removed_at === null) throw userNameTaken(fields.email)
      if (existing) return reviveUser(trx, request, existing.id, fields, at)
      const created = await trx
        .insertInto('accounts')
        .values({
          id: crypto.randomUUID(),
          ...nameColumns(fields.name),
          email: fields.email,
          // No password: verifyPassword matches nothing against an empty hash.
          password_hash: '',
          ...roleColumns(BUILT_IN_ROLE_IDS.staff),
          status: fields.active ? 'active' : 'disabled',
          scim_external_id: fields.externalId,
          scim_provisioned: true,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await recordAudit(trx, { type: 'provisioned', ...audit(request, created, at) })
      return created.id
    })
    .catch((caught: unknown) => {
      if (isUniqueViolation(caught)) throw userNameTaken(fields.email)
      throw caught
    })
  return readUser(context.db, id, baseUrl)
}

async function reviveUser(
  trx: Db,
  request: FastifyRequest,
  id: string,
  fields: UserFields,
  at: Date,
): Promise<string> {
  const locked = await lockAccountForChange(trx, id)
  if (!locked) throw userNotFound()
  await trx
    .updateTable('accounts')
    .set({ scim_removed_at: null, scim_external_id: fields.externalId, updated_at: at })
    .where('id', '=', id)
    .execute()
  await recordAudit(trx, { type: 'provisioned', ...audit(request, locked, at) })
  await applyFields(trx, request, locked, fields, at)
  return id
}

/**
 * The account made what `fields` say: name and status through the admins' path
 * (writeAccountChangeWithin: a disabled account's sessions end there, at once), e-mail and
 * externalId here. The e-mail of an account the directory did not create is not the directory's
 * to change (mutability): a token must not move an admin's address to one its holder reads.
 */
async function applyFields(
  trx: Db,
  request: FastifyRequest,
  before: Account,
  fields: UserFields,
  at: Date,
): Promise<void> {
  if (fields.email !== before.email) {
    if (!before.scim_provisioned)
      throw new ScimError(
        400,
        'mutability',
        'The userName of an account the directory did not create cannot be changed through SCIM: an administrator changes it in Painel.',
      )
    const taken = await trx
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', fields.email)
      .executeTakeFirst()
    if (taken) throw userNameTaken(fields.email)
    await trx
      .updateTable('accounts')
      .set({ email: fields.email, updated_at: at })
      .where('id', '=', before.id)
      .execute()
    await recordAudit(trx, {
      type: 'email_changed',
      ...audit(request, before, at),
      details: { from: before.email, to: fields.email },
    })
  }
  if (fields.externalId !== before.scim_external_id) {
    await trx
      .updateTable('accounts')
      .set({ scim_external_id: fields.externalId, updated_at: at })
      .where('id', '=', before.id)
      .execute()
  }
  const status = fields.active ? 'active' : 'disabled'
  const change: AccountChange = {
    ...(fields.name !== before.name && { name: fields.name }),
    ...(status !== before.status && { status }),
  }
  if (Object.keys(change).length === 0) return
  await writeAccountChangeWithin(trx, before.id, change, async (trx, was, after) => {
    if (!after) return
    if (after.name !== was.name)
      await recordAudit(trx, {
        type: 'name_changed',
        ...audit(request, after, at),
        details: { from: was.name, to: after.name },
      })
    if (after.status !== was.status)
      await recordAudit(trx, {
        type:
          after.status === 'disabled'
            ? 'disabled'
            : was.status === 'pending'
              ? 'approved'
              : 'reenabled',
        ...audit(request, after, at),
        details: { from: was.status, to: after.status },
      })
  })
}

/**
 * PUT and PATCH /Users/:id: `next` makes the new fields from the representation as it is once
 * locked (a PUT ignores it but for the name's source; a PATCH applies its operations to it).
 */
export async function changeUser(
  context: Pick<ApiContext, 'db' | 'now'>,
  request: FastifyRequest,
  rawId: string,
  next: (current: ScimResource) => UserFields,
  baseUrl: string,
): Promise<ScimResource> {
  const id = normalizeAccountId(rawId)
  if (id === null) throw userNotFound()
  await context.db
    .transaction()
    .execute(async (trx) => {
      const locked = await lockAccountForChange(trx, id)
      if (!locked || locked.scim_removed_at !== null) throw userNotFound()
      const row = await readRow(trx, id)
      if (!row) throw userNotFound()
      const current = userResource(recordOf(row), baseUrl)
      const version = (current.meta as { version: string }).version
      if (!ifMatchAllows(request.headers['if-match'], version)) throw preconditionFailed()
      await applyFields(trx, request, locked, next(current), context.now())
    })
    .catch((caught: unknown) => {
      if (!(caught instanceof ScimError) && isUniqueViolation(caught))
        throw new ScimError(409, 'uniqueness', 'That userName is taken.')
      throw caught
    })
  return readUser(context.db, id, baseUrl)
}

/**
 * DELETE /Users/:id: the person is deprovisioned: disabled (every session ends at once), and
 * gone from SCIM (404 from now on). The account and its history stay; anonymising is an
 * admin's act (features/account-deletion/).
 */
export async function deleteUser(
  context: Pick<ApiContext, 'db' | 'now'>,
  request: FastifyRequest,
  rawId: string,
  baseUrl: string,
): Promise<void> {
  const id = normalizeAccountId(rawId)
  if (id === null) throw userNotFound()
  await context.db.transaction().execute(async (trx) => {
    const at = context.now()
    const locked = await lockAccountForChange(trx, id)
    if (!locked || locked.scim_removed_at !== null) throw userNotFound()
    if (request.headers['if-match'] !== undefined) {
      const row = await readRow(trx, id)
      const current = userResource(recordOf(row!), baseUrl)
      if (
        !ifMatchAllows(request.headers['if-match'], (current.meta as { version: string }).version)
      )
        throw preconditionFailed()
    }
    if (locked.status !== 'disabled')
      await writeAccountChangeWithin(trx, id, { status: 'disabled' }, async (trx, was, after) => {
        if (after)
          await recordAudit(trx, {
            type: 'disabled',
            ...audit(request, after, at),
            details: { from: was.status, to: after.status },
          })
      })
    await trx
      .updateTable('accounts')
      .set({ scim_removed_at: at, updated_at: at })
      .where('id', '=', id)
      .execute()
    await recordAudit(trx, { type: 'deprovisioned', ...audit(request, locked, at) })
  })
}
