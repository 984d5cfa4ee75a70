import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { nameColumns } from '../../db/name-columns'
import type { Database } from '../../db/database'
import { nameKey } from '../../db/name-key'
import { testDatabase, testStoreName } from '../../test/test-database'
import { foldCase, type ResourceKind } from './attribute-schema'
import { compileFilter } from './filter-evaluator'
import { parseFilter } from './filter-parser'
import { filterToSql } from './filter-to-sql'
import { GROUP } from './group-schema'
import { groupResource } from './group-resource'
import { groupSqlAttributes } from './group-sql-attributes'
import { ScimError } from './scim-error'
import { USER } from './user-schema'
import { userResource, type ScimResource } from './user-resource'
import { userSqlAttributes } from './user-sql-attributes'

/**
 * The SQL of filter-to-sql.ts selects, on this engine, exactly the rows whose representation
 * the in-memory evaluator matches: over hand-picked filters and generated ones, on a set of
 * people and teams with accents, one-word names, no externalId, no team, every status.
 */

const BASE = 'https://painel.example/scim/v2'
const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 0, day, hour, 0, 0, 123))

const TEAMS = [
  { id: '0b5e4c1a-1f2e-4a3b-8c4d-5e6f7a8b9c01', name: 'Vendas', externalId: 'grp-VENDAS', day: 2 },
  { id: '0b5e4c1a-1f2e-4a3b-8c4d-5e6f7a8b9c02', name: 'Financeiro ação', externalId: null, day: 5 },
  {
    id: '0b5e4c1a-1f2e-4a3b-8c4d-5e6f7a8b9c03',
    name: 'Suporte 100%_x',
    externalId: 'grp-3',
    day: 9,
  },
] as const

const PEOPLE = [
  { name: 'Ana Souza', email: 'ana.souza@corp.test', status: 'active', externalId: 'A-1', team: 0 },
  {
    name: 'José da Silva Júnior',
    email: 'jose@corp.test',
    status: 'active',
    externalId: 'a-1',
    team: 0,
  },
  { name: 'Zé', email: 'ze@other.test', status: 'disabled', externalId: null, team: 1 },
  {
    name: 'Érica  Tavares',
    email: 'erica@corp.test',
    status: 'pending',
    externalId: 'E%_\\',
    team: null,
  },
  { name: 'ANA', email: 'ana@corp.test', status: 'active', externalId: 'X', team: 2 },
  { name: 'Kate Kelvin', email: 'kate@corp.test', status: 'active', externalId: null, team: 1 },
  {
    name: "Ülle O'Brien",
    email: 'ulle+tag@corp.test',
    status: 'disabled',
    externalId: 'ü-1',
    team: null,
  },
] as const

let database: Database
const users: ScimResource[] = []
const groups: ScimResource[] = []

before(async () => {
  database = await testDatabase()
  // scim_external_id and teams.updated_at come from db/provisioning-migrations.ts.
  const { db } = database
  for (const team of TEAMS) {
    await db
      .insertInto('teams')
      .values({
        id: team.id,
        name: team.name,
        name_key: nameKey(team.name),
        description: '',
        created_at: at(team.day),
      })
      .execute()
    await sql`update teams set scim_external_id = ${team.externalId}, updated_at = ${at(team.day + 1)} where id = ${team.id}`.execute(
      db,
    )
  }
  for (const [index, person] of PEOPLE.entries()) {
    const id = `7c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4${String(index).padStart(2, '0')}`
    await db
      .insertInto('accounts')
      .values({
        id,
        ...nameColumns(person.name),
        email: person.email,
        password_hash: 'x',
        role: 'staff',
        role_id: BUILT_IN_ROLE_IDS.staff,
        status: person.status,
        team_id: person.team === null ? null : TEAMS[person.team].id,
        created_at: at(10 + index),
        updated_at: at(10 + index, 18),
      })
      .execute()
    await sql`update accounts set scim_external_id = ${person.externalId} where id = ${id}`.execute(
      db,
    )
    const team = person.team === null ? null : TEAMS[person.team]
    users.push(
      userResource(
        {
          id,
          email: person.email,
          name: person.name,
          active: person.status === 'active',
          externalId: person.externalId,
          createdAt: at(10 + index),
          updatedAt: at(10 + index, 18),
          team: team ? { id: team.id, name: team.name } : null,
        },
        BASE,
      ),
    )
  }
  for (const team of TEAMS) {
    const members = PEOPLE.flatMap((person, index) =>
      person.team !== null && TEAMS[person.team].id === team.id
        ? [{ id: users[index]!.id, name: person.name }]
        : [],
    )
    groups.push(
      groupResource(
        {
          id: team.id,
          name: team.name,
          externalId: team.externalId,
          createdAt: at(team.day),
          updatedAt: at(team.day + 1),
          version: 'filter',
          members,
        },
        BASE,
      ),
    )
  }
})

after(() => database.close())

type Outcome = string[] | { refused: string | undefined }

const outcome = async (run: () => Promise<string[]> | string[]): Promise<Outcome> => {
  try {
    return (await run()).sort()
  } catch (error) {
    if (error instanceof ScimError) return { refused: error.scimType }
    throw error
  }
}

const inMemory = (kind: ResourceKind, resources: ScimResource[], text: string) =>
  outcome(() => {
    const matches = compileFilter(kind, parseFilter(text))
    return resources.filter(matches).map((resource) => resource.id)
  })

const userIds = (text: string) =>
  outcome(async () => {
    const where = filterToSql(
      USER,
      parseFilter(text),
      userSqlAttributes(database.engine),
      database.engine,
    )
    const rows = await database.db.selectFrom('accounts').select('id').where(where).execute()
    return rows.map((row) => row.id)
  })

const groupIds = (text: string) =>
  outcome(async () => {
    const where = filterToSql(
      GROUP,
      parseFilter(text),
      groupSqlAttributes(nameKey),
      database.engine,
    )
    const rows = await database.db.selectFrom('teams').select('id').where(where).execute()
    return rows.map((row) => row.id)
  })

const idsOf = (resources: ScimResource[], ...indexes: number[]) =>
  indexes.map((index) => resources[index]!.id).sort()

describe(`filters in SQL on ${testStoreName()}`, () => {
  const userCases: [string, number[] | 'refused'][] = [
    ['userName eq "ANA.SOUZA@corp.test"', [0]],
    ['userName eq "\u212Aate@corp.test"', []],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName sw "ana"', [0, 4]],
    ['userName co "+tag"', [6]],
    ['emails[type eq "work" and value ew "@OTHER.test"]', [2]],
    ['emails co "other"', [2]],
    ['displayName eq "ana"', [4]],
    ['name.givenName eq "ana"', [0, 4]],
    ['name.familyName eq "da silva júnior"', [1]],
    ['name.familyName eq "Tavares"', [3]],
    ['name.familyName pr', [0, 1, 3, 5, 6]],
    ['not (name.familyName pr)', [2, 4]],
    // Case folds ASCII letters only (foldCase): É and é stay two letters, on both engines.
    ['displayName eq "ÉRICA  TAVARES"', [3]],
    ['displayName eq "érica  tavares"', []],
    ['externalId eq "a-1"', [1]],
    ['externalId eq null', [2, 5]],
    ['not (externalId eq "a-1")', [0, 2, 3, 4, 5, 6]],
    ['externalId ne "a-1"', [0, 3, 4, 6]],
    ['externalId co "%_"', [3]],
    ['externalId ew "\\\\"', [3]],
    ['active eq true', [0, 1, 4, 5]],
    ['active ne true', [2, 3, 6]],
    ['active eq false and userName ew "corp.test"', [3, 6]],
    [
      'meta.created ge "2026-01-12T12:00:00.123Z" and meta.created lt "2026-01-14T00:00:00Z"',
      [2, 3],
    ],
    ['meta.lastModified gt "2026-01-15T18:00:00.123+00:00"', [6]],
    ['meta.lastModified gt "2026-01-16T18:00:00.123+00:00"', []],
    ['meta.resourceType eq "User"', [0, 1, 2, 3, 4, 5, 6]],
    ['meta.resourceType eq "user"', []],
    ['groups.value eq "0B5E4C1A-1F2E-4A3B-8C4D-5E6F7A8B9C01"', [0, 1]],
    ['groups.display sw "fin"', [2, 5]],
    ['groups pr', [0, 1, 2, 4, 5]],
    ['id eq "not-a-uuid"', []],
    ['id ne "not-a-uuid"', [0, 1, 2, 3, 4, 5, 6]],
    ['id ew "D406"', [6]],
    ['userName gt "jose@corp.test"', [5, 6, 2]],
    ['title pr', 'refused'],
    ['nickName eq "x"', 'refused'],
    ['userNmae eq "x"', 'refused'],
    ['name eq "Ana"', 'refused'],
    ['active gt false', 'refused'],
    ['active eq "true"', 'refused'],
    ['meta.created co "2026"', 'refused'],
    ['meta.created gt "yesterday"', 'refused'],
    ['meta.version eq "x"', 'refused'],
    ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "x"', 'refused'],
  ]
  /** Kept attributes the SQL maps leave out: refused in SQL only (the evaluator reads any). */
  const notMapped = ['meta.version', '$ref']
  for (const [text, expected] of userCases) {
    it(`Users: ${text}`, async () => {
      const sqlOutcome = await userIds(text)
      if (!notMapped.some((name) => text.includes(name)))
        assert.deepEqual(sqlOutcome, await inMemory(USER, users, text), 'SQL and memory agree')
      assert.deepEqual(
        sqlOutcome,
        expected === 'refused' ? { refused: 'invalidFilter' } : idsOf(users, ...expected),
      )
    })
  }

  const groupCases: [string, number[] | 'refused'][] = [
    ['displayName eq "vendas"', [0]],
    // The team's name key (server/db/name-key.ts) folds what the uniqueness rule folds.
    ['displayName eq "FINANCEIRO AÇÃO"', [1]],
    ['displayName co "100%_"', [2]],
    ['externalId eq "grp-vendas"', []],
    ['externalId eq "grp-VENDAS"', [0]],
    [`members[value eq "${'7c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d405'.toUpperCase()}"]`, [1]],
    ['members.value eq "7c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d404"', [2]],
    ['members[display sw "ana" or display eq "zé"]', [0, 1, 2]],
    ['members pr', [0, 1, 2]],
    ['not (members[display co "kelvin"])', [0, 2]],
    [
      'id eq "0b5e4c1a-1f2e-4a3b-8c4d-5e6f7a8b9c03" and members[value eq "7c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d400"]',
      [],
    ],
    ['meta.lastModified gt "2026-01-05T00:00:00Z"', [1, 2]],
    ['members[type eq "User"]', [0, 1, 2]],
    ['members[value eq "x"].display eq "y"', 'refused'],
    ['members[$ref pr]', 'refused'],
    ['userName eq "x"', 'refused'],
  ]
  for (const [text, expected] of groupCases) {
    it(`Groups: ${text}`, async () => {
      const sqlOutcome = await groupIds(text)
      assert.deepEqual(
        sqlOutcome,
        expected === 'refused' ? { refused: 'invalidFilter' } : idsOf(groups, ...expected),
      )
      if (!text.includes('AÇÃO') && !notMapped.some((name) => text.includes(name)))
        assert.deepEqual(sqlOutcome, await inMemory(GROUP, groups, text), 'SQL and memory agree')
    })
  }

  /** Values near the data: its own, in other cases, pieces of it, and strangers. */
  const textValue = (values: readonly string[]) =>
    fc.oneof(
      fc.constantFrom(...values),
      fc.constantFrom(...values).map((value) => value.toUpperCase()),
      fc
        .tuple(fc.constantFrom(...values), fc.nat(12), fc.nat(6))
        .map(([value, start, length]) => value.slice(start, start + length)),
      fc.constantFrom('', 'x', '%', '_', '\\', 'ü', 'K'),
    )
  const dates = Array.from({ length: 20 }, (_, day) => [
    at(day).toISOString(),
    at(day, 18).toISOString(),
  ]).flat()

  function generated(attributes: [string, 'text' | 'boolean' | 'date', readonly string[]][]) {
    const comparison = fc
      .tuple(
        fc.constantFrom(...attributes),
        fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr'),
      )
      .chain(([[path, type, values], operator]) => {
        if (operator === 'pr') return fc.constant(`${path} pr`)
        const value =
          type === 'boolean'
            ? fc.constantFrom('true', 'false', 'null')
            : type === 'date'
              ? fc.constantFrom(...dates).map((date) => JSON.stringify(date))
              : textValue(values).map((text) => JSON.stringify(text))
        return value.map((literal) => `${path} ${operator} ${literal}`)
      })
    const { filter } = fc.letrec<{ filter: string }>((tie) => ({
      filter: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        comparison,
        fc
          .tuple(tie('filter'), fc.constantFrom('and', 'or'), tie('filter'))
          .map(([a, op, b]) => `${a} ${op} ${b}`),
        tie('filter').map((inner) => `not (${inner})`),
      ),
    }))
    return filter
  }

  const names = PEOPLE.map((person) => person.name)
  const emails = PEOPLE.map((person) => person.email)
  const externalIds = PEOPLE.flatMap((person) => (person.externalId ? [person.externalId] : []))
  const ids = () => users.map((user) => user.id)

  it('Users: generated filters select in SQL what they match in memory (property)', async () => {
    const filter = generated([
      ['userName', 'text', emails],
      ['emails.value', 'text', emails],
      ['displayName', 'text', names],
      ['name.formatted', 'text', names],
      ['name.givenName', 'text', names.map((name) => name.split(' ')[0]!)],
      ['name.familyName', 'text', names],
      ['externalId', 'text', externalIds],
      ['id', 'text', ids()],
      ['active', 'boolean', []],
      ['meta.created', 'date', []],
      ['meta.lastModified', 'date', []],
      ['groups.display', 'text', TEAMS.map((team) => team.name)],
      ['emails.type', 'text', ['work', 'home']],
    ])
    const seen = { rows: 0, none: 0, refused: 0 }
    await fc.assert(
      fc.asyncProperty(filter, async (text) => {
        const found = await userIds(text)
        assert.deepEqual(found, await inMemory(USER, users, text), text)
        seen[Array.isArray(found) ? (found.length > 0 ? 'rows' : 'none') : 'refused'] += 1
      }),
      { numRuns: 400 },
    )
    // Not a test of refusals alone: most generated filters run, and many select someone.
    assert.ok(seen.rows > 100 && seen.none > 20, JSON.stringify(seen))
  })

  it('Groups: generated filters select in SQL what they match in memory (property)', async () => {
    const filter = generated([
      // ASCII names only: displayName's SQL fold is the team name key (pt-BR, wider than ASCII).
      ['displayName', 'text', ['Vendas', 'Suporte 100%_x']],
      ['externalId', 'text', ['grp-VENDAS', 'grp-3']],
      ['members.value', 'text', ids()],
      ['members.display', 'text', names],
      ['meta.created', 'date', []],
    ])
    await fc.assert(
      fc.asyncProperty(filter, async (text) => {
        // displayName's SQL fold is the team name key, which also trims and joins blanks: a
        // value it folds otherwise than foldCase is not the same question in memory.
        for (const [, literal] of text.matchAll(/displayName [a-z]+ ("(?:[^"\\]|\\.)*")/g)) {
          const value = JSON.parse(literal!) as string
          if (nameKey(value) !== foldCase(value)) return
        }
        assert.deepEqual(await groupIds(text), await inMemory(GROUP, groups, text), text)
      }),
      { numRuns: 300 },
    )
  })
})
