import { setImmediate as nextTurn } from 'node:timers/promises'
import type { FastifyRequest } from 'fastify'
import { normalizeAccountId } from '../../../common/account-id'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import {
  lockAccountForChange,
  lockAdminChanges,
  writeAccountChangeWithin,
  type AccountChange,
} from '../../accounts/account-administration'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import type { Db } from '../../db/database'
import { engineOf } from '../../db/portable-sql'
import type { Account } from '../../db/schema'
import { requestOrigin } from '../../http/request-origin'
import { roleIdForGroup } from '../../roles/group-role'
import { lockTeam, moveMembersOut, moveMembersOutInSteps } from '../../roles/team-store'
import { nameKey } from '../../db/name-key'
import { filterToSql } from './filter-to-sql'
import type { Filter } from './filter-syntax'
import { groupFields, type GroupFields } from './group-input'
import { groupResource, groupVersionTag, type GroupRecord } from './group-resource'
import { GROUP } from './group-schema'
import { groupSqlAttributes } from './group-sql-attributes'
import type { Page } from './list-response'
import { ifMatchAllows } from './resource-version'
import { ScimError } from './scim-error'
import { tokenParty } from './scim-token-guard'
import { preconditionFailed } from './scim-users'
import type { ScimResource } from './user-resource'

/**
 * The Groups of /scim/v2 over `teams` (RFC 7644 §3): a Group is a team, its members the team's
 * people (those SCIM sees: not deleted by the directory). A person has one team, so joining a
 * Group moves them out of the one they were in, and leaving it leaves them with none. Joining
 * gives the role the single sign-on mapping gives the group's name or externalId
 * (roles/group-role.ts); leaving a group whose mapping gave the person's present role takes them
 * back to Equipe; a mapping that says nothing changes no role. Each change is one transaction
 * that locks the team's row first, so two PATCHes of one Group (Okta pushes members in several)
 * are one after the other, each on what the other left.
 */

export const groupNotFound = () => new ScimError(404, undefined, 'No such Group.')

type TeamRow = {
  id: string
  name: string
  scim_external_id: string | null
  created_at: Date
  updated_at: Date | null
}

async function membersOf(db: Db, teamIds: string[]): Promise<MembersByTeam> {
  if (teamIds.length === 0) return noMembers()
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'name', 'team_id'])
    .where('team_id', 'in', teamIds)
    .where('scim_removed_at', 'is', null)
    // In one order whatever the plan, the order of the Group's members: accounts_scim_members'
    // own (db/provisioning-migrations.ts), read from it alone.
    .orderBy('team_id')
    .orderBy('id')
    .execute()
  return byTeam(rows)
}

type MemberRow = { id: string; name: string; team_id: string | null }
type MembersByTeam = Map<string, { id: string; name: string }[]>

const noMembers = (): MembersByTeam => new Map()

/** Rows of members, each put in its team's list (added to `into`, when given). */
function byTeam(rows: MemberRow[], into = noMembers()): MembersByTeam {
  for (const row of rows) {
    const team = row.team_id!.toLowerCase()
    // Pushed in place: a copy of the list for each member made a team of 12,000 cost some 70
    // million copies (GET /Groups took 11.7 s at 100k people, tests running beside it; by hand
    // on the scale bench's data).
    const members = into.get(team)
    const member = { id: row.id.toLowerCase(), name: row.name }
    if (members) members.push(member)
    else into.set(team, [member])
  }
  return into
}

/**
 * The first rows whose members add up to no more than `most` (the first row whatever its size),
 * sized from the tallies the database keeps per team (db/list-migrations.ts, 4203): at most one
 * row per team, role, status and second factor, not the accounts themselves.
 */
async function upToMembers<Row extends { id: string }>(
  db: Db,
  rows: Row[],
  most: number,
): Promise<Row[]> {
  if (rows.length < 2) return rows
  const sizes = await db
    .selectFrom('account_tallies')
    .select(['team_key', (eb) => eb.fn.sum<number | string>('count').as('members')])
    .where(
      'team_key',
      'in',
      rows.map((row) => row.id.toLowerCase()),
    )
    .groupBy('team_key')
    .execute()
  const sizeOf = new Map(sizes.map((size) => [size.team_key, Number(size.members)]))
  let sum = 0
  const end = rows.findIndex(
    (row, index) => (sum += sizeOf.get(row.id.toLowerCase()) ?? 0) > most && index > 0,
  )
  return end === -1 ? rows : rows.slice(0, end)
}

function recordOf(
  row: TeamRow,
  version: string,
  members: { id: string; name: string }[],
): GroupRecord {
  return {
    id: row.id.toLowerCase(),
    name: row.name,
    externalId: row.scim_external_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? row.created_at,
    version,
    members,
  }
}

/** Teams with their Group's version, which triggers keep (db/provisioning-migrations.ts, 4603). */
const teamsWithVersions = (db: Db) =>
  db
    .selectFrom('teams')
    .innerJoin('group_versions', 'group_versions.team_id', 'teams.id')
    .select([
      'teams.id',
      'teams.name',
      'teams.scim_external_id',
      'teams.created_at',
      'teams.updated_at',
      'group_versions.version',
    ])

/** The version of a team whose row the transaction has locked. */
async function versionOf(trx: Db, teamId: string): Promise<string> {
  const { version } = await trx
    .selectFrom('group_versions')
    .select('version')
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow()
  return version
}

/** How many of a Group's members one turn of the event loop reads: about 4 ms on SQLite. */
export const MEMBERS_PER_TURN = 2_000

/**
 * Teams' members, in id order, MEMBERS_PER_TURN at a time along accounts_scim_members, the event
 * loop let go between two reads: in one statement, a team of 11,960 held it 60-110 ms (SQLite,
 * 100k people, by hand). A read takes the teams left in their order until it has its rows; a team
 * it leaves half-read is read on alone from its last member. Other requests may change a team
 * between two reads: the caller compares the teams' versions before and after (versionsStill).
 */
async function membersByTurns(db: Db, teamIds: string[], perTurn: number): Promise<MembersByTeam> {
  const read = noMembers()
  const members = db
    .selectFrom('accounts')
    .select(['id', 'name', 'team_id'])
    .where('scim_removed_at', 'is', null)
  // Lower-case ids compare as both engines order them (text bytewise, uuid by its bytes).
  let left = [...new Set(teamIds.map((id) => id.toLowerCase()))].sort()
  let halfRead: { team: string; after: string } | undefined
  for (;;) {
    const rows = halfRead
      ? await members
          .where('team_id', '=', halfRead.team)
          .where('id', '>', halfRead.after)
          .orderBy('id')
          .limit(perTurn)
          .execute()
      : left.length === 0
        ? []
        : await members
            .where('team_id', 'in', left)
            .orderBy('team_id')
            .orderBy('id')
            .limit(perTurn)
            .execute()
    byTeam(rows, read)
    if (rows.length < perTurn) {
      if (!halfRead) return read
      halfRead = undefined
    } else {
      const last = rows.at(-1)!
      const team = last.team_id!.toLowerCase()
      halfRead = { team, after: last.id }
      left = left.filter((id) => id > team)
    }
    await nextTurn()
  }
}

/**
 * Whether each team still has the version it was read with. Every change to what a Group shows
 * writes its version in the same transaction (db/provisioning-migrations.ts, 4603), so members
 * read between two equal versions are the Group as that version shows it.
 */
async function versionsStill(db: Db, rows: { id: string; version: string }[]): Promise<boolean> {
  if (rows.length === 0) return true
  const now = await db
    .selectFrom('group_versions')
    .select(['team_id', 'version'])
    .where(
      'team_id',
      'in',
      rows.map((row) => row.id),
    )
    .execute()
  const versionOf = new Map(now.map((row) => [row.team_id.toLowerCase(), row.version]))
  return rows.every((row) => versionOf.get(row.id.toLowerCase()) === row.version)
}

/** Reads of a page changed under them before the last, which reads in one turn instead. */
const READS_BY_TURNS = 3

/**
 * The Groups of the teams `readTeams` gives, each as one version of it shows it: their members
 * are read by turns (membersByTurns), and teams and members read again when a version changed
 * meanwhile (versionsStill); the READS_BY_TURNS-th read takes the members in one statement.
 * `withMembers` false: the members are not read at all.
 */
async function groupsOf(
  db: Db,
  readTeams: () => Promise<(TeamRow & { version: string })[]>,
  baseUrl: string,
  withMembers: boolean,
  perTurn: number,
): Promise<ScimResource[]> {
  for (let read = 1; ; read += 1) {
    const rows = await readTeams()
    const ids = rows.map((row) => row.id)
    const last = read === READS_BY_TURNS
    const members = !withMembers
      ? noMembers()
      : last
        ? await membersOf(db, ids)
        : await membersByTurns(db, ids, perTurn)
    if (!withMembers || last || (await versionsStill(db, rows)))
      return rows.map((row) =>
        groupResource(recordOf(row, row.version, members.get(row.id.toLowerCase()) ?? []), baseUrl),
      )
  }
}

/**
 * GET /Groups/:id, and the answer of a change. `withMembers` false (the request's attributes leave
 * them out, as Entra's reads do): the members are not read at all.
 */
export async function readGroup(
  db: Db,
  rawId: string,
  baseUrl: string,
  withMembers = true,
  perTurn = MEMBERS_PER_TURN,
): Promise<ScimResource> {
  const id = normalizeAccountId(rawId)
  if (id === null) throw groupNotFound()
  const [group] = await groupsOf(
    db,
    async () => {
      const row = await teamsWithVersions(db).where('teams.id', '=', id).executeTakeFirst()
      if (!row) throw groupNotFound()
      return [row]
    },
    baseUrl,
    withMembers,
    perTurn,
  )
  return group!
}

/**
 * The most members one page of GET /Groups carries: past it the page ends early, after one Group
 * at least (RFC 7644 §3.4.2.4 lets a page hold fewer than asked; `itemsPerPage` says how many,
 * and the directory asks from there). Eight teams of about 12,000 people each made one answer of
 * 16.8 MB, its members read and written out in one turn of the loop.
 */
export const MEMBERS_PER_LIST_PAGE = 10_000

export async function listGroups(
  db: Db,
  filter: Filter | undefined,
  page: Page,
  baseUrl: string,
  withMembers: boolean,
  membersPerPage = MEMBERS_PER_LIST_PAGE,
  perTurn = MEMBERS_PER_TURN,
): Promise<{ total: number; resources: ScimResource[] }> {
  const engine = engineOf(db)
  const where = filter ? filterToSql(GROUP, filter, groupSqlAttributes(nameKey), engine) : undefined
  let count = db.selectFrom('teams').select((eb) => eb.fn.countAll<number | string>().as('total'))
  if (where) count = count.where(where)
  const { total } = await count.executeTakeFirstOrThrow()
  if (page.count === 0) return { total: Number(total), resources: [] }
  let query = teamsWithVersions(db)
  if (where) query = query.where(where)
  const readTeams = async () => {
    const rows = await query
      .orderBy('teams.created_at')
      .orderBy('teams.id')
      .limit(page.count)
      .offset(page.offset)
      .execute()
    // Entra ID reads Groups with excludedAttributes=members: then they are not read at all.
    return withMembers ? upToMembers(db, rows, membersPerPage) : rows
  }
  return {
    total: Number(total),
    resources: await groupsOf(db, readTeams, baseUrl, withMembers, perTurn),
  }
}

const groupNameTaken = (name: string) =>
  new ScimError(409, 'uniqueness', `A Group with displayName "${name}" already exists.`)

const isUniqueViolation = (caught: unknown) =>
  /unique|duplicate/i.test(String((caught as Error)?.message ?? ''))

/** Who acted, and when: the app's clock (`context.now`), as every change's. */
const actor = (request: FastifyRequest, at: Date) => ({
  actor: tokenParty(request),
  origin: requestOrigin(request),
  at,
})

async function refuseTakenName(trx: Db, name: string, except?: string) {
  let query = trx.selectFrom('teams').select('id').where('name_key', '=', nameKey(name))
  if (except) query = query.where('id', '<>', except)
  if (await query.executeTakeFirst()) throw groupNameTaken(name)
}

/** POST /Groups: a new team (closed to registrations, no description) and its members. */
export async function createGroup(
  context: Pick<ApiContext, 'db' | 'now' | 'config'>,
  request: FastifyRequest,
  body: unknown,
  baseUrl: string,
): Promise<ScimResource> {
  const fields = groupFields(body)
  const id = crypto.randomUUID()
  await context.db
    .transaction()
    .execute(async (trx) => {
      await refuseTakenName(trx, fields.name)
      const at = context.now()
      await trx
        .insertInto('teams')
        .values({
          id,
          name: fields.name,
          name_key: nameKey(fields.name),
          description: '',
          open: false,
          scim_external_id: fields.externalId,
          created_at: at,
          updated_at: at,
        })
        .execute()
      await recordAudit(trx, {
        type: 'team_created',
        ...actor(request, at),
        details: { name: fields.name, open: false },
      })
      await placeMembers(context, trx, request, { id, ...fields }, [], fields.memberIds, at)
    })
    .catch((caught: unknown) => {
      if (!(caught instanceof ScimError) && isUniqueViolation(caught))
        throw groupNameTaken(fields.name)
      throw caught
    })
  return readGroup(context.db, id, baseUrl)
}

/**
 * Who joins and who leaves: each one's team (and role, by the mapping) written through the
 * admins' path, audited as team_changed and role_changed. A member that is no User SCIM knows
 * is invalidValue, before anything is written.
 */
async function placeMembers(
  context: Pick<ApiContext, 'config'>,
  trx: Db,
  request: FastifyRequest,
  team: { id: string; name: string; externalId: string | null },
  before: string[],
  after: string[],
  at: Date,
): Promise<void> {
  // Sets: a PATCH that adds one member to a team of 12,000 compared every member with every
  // other (144 million comparisons, half of its 800 ms; by hand on the scale bench's data).
  const was = new Set(before)
  const will = new Set(after)
  const joining = after.filter((id) => !was.has(id))
  const leaving = before.filter((id) => !will.has(id))
  if (joining.length === 0 && leaving.length === 0) return
  const roleId = await roleIdForGroup(trx, context.config.authProviders, team)
  for (const id of joining) {
    const person = await lockAccountForChange(trx, id)
    if (!person || person.scim_removed_at !== null)
      throw new ScimError(400, 'invalidValue', `The member "${id}" is not a User.`)
    await moveTo(trx, request, at, person, {
      teamId: team.id,
      ...(roleId !== undefined && { roleId }),
    })
  }
  for (const id of leaving) {
    const person = await lockAccountForChange(trx, id)
    if (!person || person.team_id?.toLowerCase() !== team.id) continue
    const keepsRole = roleId === undefined || person.role_id.toLowerCase() !== roleId
    await moveTo(trx, request, at, person, {
      teamId: null,
      ...(!keepsRole && { roleId: BUILT_IN_ROLE_IDS.staff }),
    })
  }
}

async function moveTo(
  trx: Db,
  request: FastifyRequest,
  at: Date,
  person: Account,
  wanted: AccountChange,
) {
  await writeAccountChangeWithin(
    trx,
    person.id,
    (was, { lastActiveAdmin }) => {
      const change: AccountChange = {}
      if (wanted.teamId !== undefined && wanted.teamId !== was.team_id?.toLowerCase())
        change.teamId = wanted.teamId
      // The last active Administrador keeps the role: the admins' rule holds for the directory.
      if (
        wanted.roleId !== undefined &&
        wanted.roleId !== was.role_id.toLowerCase() &&
        !lastActiveAdmin
      )
        change.roleId = wanted.roleId
      return Object.keys(change).length === 0 ? null : change
    },
    async (trx, was, after) => {
      if (!after) return
      const teamIds = [was.team_id, after.team_id].filter((id): id is string => id !== null)
      const names =
        teamIds.length === 0
          ? []
          : await trx
              .selectFrom('teams')
              .select(['id', 'name'])
              .where('id', 'in', teamIds)
              .execute()
      const teamName = (id: string | null) =>
        id === null
          ? null
          : (names.find((team) => team.id.toLowerCase() === id.toLowerCase())?.name ?? null)
      const who = { ...actor(request, at), account: party(after) }
      if (after.team_id !== was.team_id)
        await recordAudit(trx, {
          type: 'team_changed',
          ...who,
          details: { from: teamName(was.team_id), to: teamName(after.team_id) },
        })
      if (after.role_id !== was.role_id) {
        const roles = await trx
          .selectFrom('roles')
          .select(['id', 'name'])
          .where('id', 'in', [was.role_id, after.role_id])
          .execute()
        const roleName = (id: string) =>
          roles.find((role) => role.id.toLowerCase() === id.toLowerCase())?.name ?? null
        await recordAudit(trx, {
          type: 'role_changed',
          ...who,
          details: {
            from: was.role,
            to: after.role,
            from_role: roleName(was.role_id),
            to_role: roleName(after.role_id),
          },
        })
      }
    },
  )
}

/** How a change of a Group reads its members, and what it answers. */
export interface GroupChangeScope {
  /**
   * The only members the change can touch (a PATCH's, patch-operations.ts membersNamedByPatch):
   * the Group is read with those of them it has. Null: with all of them (a PUT).
   */
  named: readonly string[] | null
  /** The answer carries the members (false: the request's attributes leave them out). */
  answerWithMembers: boolean
}

/**
 * The Group's members among `ids` (as a request wrote them: one that is no UUID is no member),
 * in id order. A PATCH that adds one person to a team of 12,000 read all of them, their
 * representation built, copied and checked, twice: 400 ms with the event loop held 170 ms (by
 * hand, on the data npm run bench -- --only scale seeds).
 */
async function membersAmong(db: Db, teamId: string, ids: readonly string[]) {
  const wanted = [...new Set(ids.map(normalizeAccountId).filter((id): id is string => id !== null))]
  const members: { id: string; name: string }[] = []
  // In pieces: a PATCH may name thousands, past what a statement may bind.
  for (let start = 0; start < wanted.length; start += 500) {
    const rows = await db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('team_id', '=', teamId)
      .where('scim_removed_at', 'is', null)
      .where('id', 'in', wanted.slice(start, start + 500))
      .execute()
    for (const row of rows) members.push({ id: row.id.toLowerCase(), name: row.name })
  }
  return members.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** PUT and PATCH /Groups/:id: `next` makes the new fields from the Group as it is once locked. */
export async function changeGroup(
  context: Pick<ApiContext, 'db' | 'now' | 'config'>,
  request: FastifyRequest,
  rawId: string,
  next: (current: ScimResource) => GroupFields,
  baseUrl: string,
  scope: GroupChangeScope = { named: null, answerWithMembers: true },
): Promise<ScimResource> {
  const id = normalizeAccountId(rawId)
  if (id === null) throw groupNotFound()
  let fields: GroupFields | undefined
  await context.db
    .transaction()
    .execute(async (trx) => {
      const at = context.now()
      const row = await lockTeam(trx, id)
      if (!row) throw groupNotFound()
      const version = await versionOf(trx, row.id)
      if (!ifMatchAllows(request.headers['if-match'], groupVersionTag(version)))
        throw preconditionFailed()
      const members =
        scope.named === null
          ? ((await membersOf(trx, [row.id])).get(row.id.toLowerCase()) ?? [])
          : await membersAmong(trx, row.id, scope.named)
      fields = next(groupResource(recordOf(row, version, members), baseUrl))
      if (fields.name !== row.name) {
        await refuseTakenName(trx, fields.name, id)
        await recordAudit(trx, {
          type: 'team_updated',
          ...actor(request, at),
          details: { from_name: row.name, name: fields.name },
        })
      }
      await trx
        .updateTable('teams')
        .set({
          name: fields.name,
          name_key: nameKey(fields.name),
          scim_external_id: fields.externalId,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute()
      await placeMembers(
        context,
        trx,
        request,
        { id, name: fields.name, externalId: fields.externalId },
        members.map((member) => member.id),
        fields.memberIds,
        at,
      )
    })
    .catch((caught: unknown) => {
      if (!(caught instanceof ScimError) && isUniqueViolation(caught))
        throw groupNameTaken(fields?.name ?? '')
      throw caught
    })
  return readGroup(context.db, id, baseUrl, scope.answerWithMembers)
}

/** DELETE /Groups/:id: the team goes; its people keep their accounts, with no team. */
export async function deleteGroup(
  context: Pick<ApiContext, 'db' | 'now'>,
  request: FastifyRequest,
  rawId: string,
): Promise<void> {
  const id = normalizeAccountId(rawId)
  if (id === null) throw groupNotFound()
  // SQLite: its people leave a hundred at a time first (roles/team-store.ts), unless the client
  // asks for the version it knows (If-Match): a refusal (412) must leave the Group as it was.
  const movedEarlier =
    request.headers['if-match'] === undefined
      ? await moveMembersOutInSteps(context.db, id, (trx, details) =>
          recordAudit(trx, {
            type: 'team_deletion_started',
            ...actor(request, context.now()),
            details,
          }),
        )
      : 0
  await context.db.transaction().execute(async (trx) => {
    const at = context.now()
    const row = await lockTeam(trx, id)
    if (!row) throw groupNotFound()
    if (!ifMatchAllows(request.headers['if-match'], groupVersionTag(await versionOf(trx, row.id))))
      throw preconditionFailed()
    // Then the admins' lock, as the teams screen's delete does (features/teams/teams-routes.ts).
    await lockAdminChanges(trx)
    const members = movedEarlier + (await moveMembersOut(trx, id))
    await trx.deleteFrom('teams').where('id', '=', id).execute()
    await recordAudit(trx, {
      type: 'team_deleted',
      ...actor(request, at),
      details: { name: row.name, members },
    })
  })
}
