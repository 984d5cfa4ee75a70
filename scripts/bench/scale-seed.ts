/**
 * A database filled the way an organisation fills Painel's tables, for the scale bench
 * (scale.ts): people with Portuguese names (accents, cedillas, two surnames), 8 teams, built-in
 * and custom roles, 85% active, the rest pending, invited or disabled; second factors, locks and
 * open sessions; and the audit log of ~20 real event types over 300 days, in time order.
 *
 * Rows are written through the project's own code wherever it decides a column: the name and
 * its sort key (nameColumns), the role columns (roleColumns), team names' keys (nameKey), event
 * ids (newEventId, so ids sort as their times), a real scrypt hash (hashPassword), the limit
 * keys (limitKeys), the audit details' keys (common/audit-details.ts). They are inserted in
 * batches rather than one use case at a time: a million sign-ins through the sign-in route would
 * take hours, and the rows would be the same.
 *
 * Everything random comes from a seeded generator: the same sizes give the same data.
 */
import { randomBytes } from 'node:crypto'
import { sql, type Insertable } from 'kysely'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { nameColumns } from '../../server/db/name-columns'
import { hashPassword } from '../../server/accounts/passwords'
import { limitKeys } from '../../server/accounts/sign-in-limits'
import { newEventId } from '../../server/audit-log/event-id'
import type { Db } from '../../server/db/database'
import type { Engine } from '../../server/db/portable-sql'
import type { AuditEventsTable, Schema } from '../../server/db/schema'
import { nameKey } from '../../server/db/name-key'
import { roleColumns } from '../../server/db/role-columns'
import { BENCH_ADMIN } from './painel-server'

export interface ScaleSize {
  label: string
  people: number
  events: number
}

export const DAYS = 300
const DAY_MS = 86_400_000

/** Every seeded person's password but the admin's (one hash: thousands would take minutes). */
export const SEEDED_PASSWORD = 'senha-de-todos-1'

/** What the routes measured need to know of the data: ids, a period, the admin's password. */
export interface SeedFacts {
  /** BENCH_ADMIN, the organisation's first admin: the server's first start finds it there. */
  admin: { id: string; email: string; password: string }
  /**
   * The active people whose password alone signs them in (no second factor, not locked, not
   * the admin): the overload section's sign-ins.
   */
  passwordOnlyEmails: string[]
  /** An active person with sign-ins, sessions and events (their account's page). */
  person: { id: string; name: string }
  adminRoleId: string
  customRoleId: string
  teamIds: string[]
  /** The first and last instants of the log. */
  from: Date
  to: Date
  seedMs: number
}

const FIRST_NAMES = [
  'João',
  'José',
  'Antônio',
  'Francisco',
  'Luís',
  'Sérgio',
  'Márcio',
  'Fábio',
  'Vinícius',
  'Otávio',
  'Caio',
  'Rafael',
  'Gustavo',
  'Mateus',
  'Lucas',
  'Thiago',
  'André',
  'Cássio',
  'Júlio',
  'Estêvão',
  'Maria',
  'Ana',
  'Conceição',
  'Júlia',
  'Lúcia',
  'Cláudia',
  'Patrícia',
  'Fernanda',
  'Letícia',
  'Mônica',
  'Bárbara',
  'Débora',
  'Vitória',
  'Lívia',
  'Natália',
  'Sônia',
  'Márcia',
  'Beatriz',
  'Camila',
  'Íris',
  'Úrsula',
  'Inês',
  'Gabriela',
  'Renata',
  'Tânia',
  'Zélia',
]

const SURNAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Ribeiro',
  'Carvalho',
  'Araújo',
  'Conceição',
  'Gonçalves',
  'Fernandes',
  'Mendonça',
  'Magalhães',
  'Brandão',
  'Falcão',
  'Simões',
  'Assunção',
  'Guimarães',
  'Lourenço',
  'Damião',
  'Correia',
  'Peixoto',
  'Cavalcanti',
  'Nóbrega',
  'Sá',
  'Órfão',
  'Leão',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Teixeira',
]

const TEAMS = [
  'Atendimento',
  'Financeiro',
  'Jurídico',
  'Operações',
  'Tecnologia',
  'Recursos Humanos',
  'Comercial',
  'Logística',
]

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
]

/** mulberry32: small, fast, and the same sequence for the same seed. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (below: number) => Math.floor(next() * below)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}
type Random = ReturnType<typeof generator>

/** Folded for an e-mail address: "João" → "joao". */
const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '')

type Shown = 'active' | 'pending' | 'invited' | 'disabled'

/** 85% active; the rest waiting for approval, invited and not yet in, or disabled. */
function shownStatus(random: Random): Shown {
  const roll = random.next()
  if (roll < 0.85) return 'active'
  if (roll < 0.89) return 'pending'
  if (roll < 0.92) return 'invited'
  return 'disabled'
}

/** ~20 event types of the real log, in proportions like a working organisation's. */
const EVENT_WEIGHTS: [AuditEventsTable['type'], number][] = [
  ['sign_in', 38],
  ['sign_in_failed', 9],
  ['signed_out', 10],
  ['session_ended', 4],
  ['notice_sent', 6],
  ['password_changed', 2],
  ['reset_requested', 2],
  ['password_reset', 1.5],
  ['registered', 1.5],
  ['approved', 1.2],
  ['invited', 1],
  ['invitation_resent', 0.5],
  ['role_changed', 0.6],
  ['team_changed', 0.8],
  ['mfa_enabled', 2],
  ['passkey_added', 1],
  ['recovery_code_used', 0.5],
  ['disabled', 0.6],
  ['reenabled', 0.3],
  ['name_changed', 0.5],
  ['locked', 0.8],
  ['unlocked', 0.5],
  ['email_changed', 0.3],
  ['data_exported', 0.2],
  ['notices_changed', 0.3],
]
const WEIGHT_TOTAL = EVENT_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0)

function eventType(random: Random): AuditEventsTable['type'] {
  let roll = random.next() * WEIGHT_TOTAL
  for (const [type, weight] of EVENT_WEIGHTS) {
    roll -= weight
    if (roll < 0) return type
  }
  return 'sign_in'
}

/** Done by an admin to someone else; the rest by the person to their own account, or by nobody. */
const BY_AN_ADMIN = new Set([
  'approved',
  'invited',
  'invitation_resent',
  'role_changed',
  'team_changed',
  'disabled',
  'reenabled',
  'unlocked',
])
const BY_NOBODY = new Set(['notice_sent', 'locked'])

function details(type: string, random: Random): Record<string, string | number | boolean> {
  switch (type) {
    case 'sign_in':
      return random.next() < 0.1
        ? { method: 'passkey' }
        : { method: 'password', ...(random.next() < 0.05 ? { new_browser: true } : {}) }
    case 'sign_in_failed':
      return { method: 'password' }
    case 'session_ended':
      return { sessions: 1, by: random.next() < 0.7 ? 'owner' : 'admin', which: 'one' }
    case 'notice_sent':
      return { notice: random.pick(['new_browser', 'password_changed', 'mfa_enabled']) }
    case 'reset_requested':
      return { by: 'owner' }
    case 'registered':
      return { via: 'form' }
    case 'approved':
      return { from: 'pending', to: 'active' }
    case 'disabled':
      return { from: 'active', to: 'disabled' }
    case 'reenabled':
      return { from: 'disabled', to: 'active' }
    case 'role_changed':
      return { from_role: 'Equipe', to_role: 'Coordenação' }
    case 'team_changed':
      return { from: random.pick(TEAMS), to: random.pick(TEAMS) }
    case 'invited':
      return { role: 'staff', role_name: 'Equipe', team: random.pick(TEAMS) }
    case 'mfa_enabled':
      return { method: 'totp' }
    case 'passkey_added':
      return { passkey: crypto.randomUUID(), name: random.pick(['Notebook', 'Celular', 'YubiKey']) }
    case 'recovery_code_used':
      return { left: random.int(10) }
    case 'name_changed':
      return { from: 'Nome antigo', to: 'Nome novo' }
    case 'email_changed':
      return { from: 'antigo@empresa.com.br', to: 'novo@empresa.com.br' }
    case 'notices_changed':
      return { new_browser: random.next() < 0.5 }
    default:
      return {}
  }
}

/**
 * Inserts rows in batches the engines take in one statement (SQLite: 32,766 parameters;
 * PostgreSQL: 65,535), fifty batches to a transaction (one commit, one sync to the disk).
 */
async function insertAll<T extends keyof Schema>(
  db: Db,
  table: T,
  rows: Insertable<Schema[T]>[],
  batch = 1000,
): Promise<void> {
  for (let group = 0; group < rows.length; group += batch * 50) {
    await db.transaction().execute(async (trx) => {
      const end = Math.min(rows.length, group + batch * 50)
      for (let start = group; start < end; start += batch) {
        await trx
          .insertInto(table)
          .values(rows.slice(start, Math.min(end, start + batch)))
          .execute()
      }
    })
  }
}

interface Person {
  id: string
  name: string
  email: string
  teamId: string | null
  createdAt: Date
  status: Shown
}

/**
 * Fills an empty, migrated database. `schemaBefore`: the rows are those of the schema of that
 * migration (scale.ts seeds the schema as it was and then upgrades it, timing the upgrade).
 */
export async function seedScale(
  db: Db,
  engine: Engine,
  size: ScaleSize,
  now = new Date(),
): Promise<SeedFacts> {
  const started = performance.now()
  const random = generator(42)
  const from = new Date(now.getTime() - DAYS * DAY_MS)
  const instant = () => new Date(from.getTime() + Math.floor(random.next() * DAYS * DAY_MS))
  const hash = await hashPassword(SEEDED_PASSWORD)
  const adminHash = await hashPassword(BENCH_ADMIN.password)

  const teamIds: string[] = []
  for (const name of TEAMS) {
    const id = crypto.randomUUID()
    teamIds.push(id)
    await db
      .insertInto('teams')
      .values({ id, name, name_key: nameKey(name), description: `Time de ${name}`, open: false })
      .execute()
  }
  const customRoleId = crypto.randomUUID()
  await db
    .insertInto('roles')
    .values({
      id: customRoleId,
      name: 'Coordenação',
      name_key: nameKey('Coordenação'),
      description: 'Coordena o próprio time',
      scope: 'team',
    })
    .execute()
  await db
    .insertInto('role_permissions')
    .values(
      (['staff.view', 'staff.approve', 'audit.view', 'dashboard.team'] as const).map(
        (permission) => ({ role_id: customRoleId, permission }),
      ),
    )
    .execute()

  // People in the order they arrived: created_at grows with the row, as it does in a real table.
  const times = Array.from({ length: size.people - 1 }, instant).sort((a, b) => +a - +b)
  const admin: Person = {
    id: crypto.randomUUID(),
    name: 'Administração do Painel',
    email: BENCH_ADMIN.email,
    teamId: null,
    createdAt: from,
    status: 'active',
  }
  const people: Person[] = [admin]
  const accountRows: Insertable<Schema['accounts']>[] = [
    {
      id: admin.id,
      ...nameColumns(admin.name),
      email: admin.email,
      password_hash: adminHash,
      ...roleColumns(BUILT_IN_ROLE_IDS.admin),
      status: 'active',
      created_at: from,
      updated_at: from,
      invitation_expires_at: null,
      team_id: null,
    },
  ]
  for (const [index, createdAt] of times.entries()) {
    const first = random.pick(FIRST_NAMES)
    const surname = random.pick(SURNAMES)
    const name =
      random.next() < 0.6 ? `${first} ${random.pick(SURNAMES)} ${surname}` : `${first} ${surname}`
    const email = `${ascii(first)}.${ascii(surname)}.${index + 1}@empresa.com.br`
    const status = shownStatus(random)
    const roll = random.next()
    const roleId =
      roll < 0.01 ? BUILT_IN_ROLE_IDS.admin : roll < 0.05 ? customRoleId : BUILT_IN_ROLE_IDS.staff
    const teamId = random.next() < 0.05 ? null : random.pick(teamIds)
    const person = { id: crypto.randomUUID(), name, email, teamId, createdAt, status }
    people.push(person)
    accountRows.push({
      id: person.id,
      ...nameColumns(name),
      email,
      password_hash: hash,
      ...roleColumns(roleId),
      status: status === 'invited' ? 'active' : status,
      created_at: createdAt,
      updated_at: createdAt,
      invitation_expires_at:
        status === 'invited' ? new Date(createdAt.getTime() + 7 * DAY_MS) : null,
      team_id: teamId,
    })
  }
  await insertAll(db, 'accounts', accountRows)

  // Second factors (30% an authenticator app, 5% a passkey), 0.5% locked by failed sign-ins,
  // and the open sessions of the last days.
  const totp: Insertable<Schema['totp_factors']>[] = []
  const passkeys: Insertable<Schema['passkeys']>[] = []
  const limits: Insertable<Schema['sign_in_limits']>[] = []
  const sessions: Insertable<Schema['sessions']>[] = []
  const passwordOnlyEmails: string[] = []
  for (const person of people) {
    if (person.status !== 'active') continue
    // The admin the bench signs in as: a password, no second factor, not locked.
    const signsIn = person === admin
    let passwordOnly = !signsIn
    if (random.next() < 0.3 && !signsIn) {
      passwordOnly = false
      totp.push({
        account_id: person.id,
        secret: randomBytes(20).toString('hex'),
        created_at: person.createdAt,
        confirmed_at: person.createdAt,
        last_step: null,
      })
    }
    if (random.next() < 0.05 && !signsIn) {
      passwordOnly = false
      passkeys.push({
        id: crypto.randomUUID(),
        account_id: person.id,
        credential_id: randomBytes(16).toString('base64url'),
        public_key: randomBytes(64).toString('base64url'),
        counter: 0,
        transports: '["internal"]',
        name: 'Notebook',
        created_at: person.createdAt,
        last_used_at: null,
      })
    }
    if (random.next() < 0.005 && !signsIn) {
      passwordOnly = false
      const key = limitKeys.account(person.email)
      limits.push({
        key: key.key,
        account: person.email,
        count: 100,
        window_ends_at: new Date(now.getTime() + DAY_MS),
        blocked_until: new Date(now.getTime() + 3_600_000),
      })
    }
    if (passwordOnly) passwordOnlyEmails.push(person.email)
    const open = person === admin ? 1 : random.next() < 0.3 ? 1 + random.int(2) : 0
    for (let session = 0; session < open; session += 1) {
      const created = new Date(now.getTime() - random.int(8 * 3_600_000))
      sessions.push({
        token_hash: randomBytes(32).toString('hex'),
        account_id: person.id,
        created_at: created,
        expires_at: new Date(created.getTime() + 12 * 3_600_000),
        id: crypto.randomUUID(),
        last_seen_at: created,
        ip: '177.10.20.30',
        browser: 'Chrome no Windows',
        ended_at: null,
        end_reason: null,
      })
    }
  }
  await insertAll(db, 'totp_factors', totp)
  await insertAll(db, 'passkeys', passkeys)
  await insertAll(db, 'sign_in_limits', limits)
  await insertAll(db, 'sessions', sessions)

  // The log, oldest first, so that each event's UUIDv7 id sorts with its time as the server's do.
  const admins = people.filter(
    (person, index) => index === 0 || accountRows[index]!.role === 'admin',
  )
  const eventTimes = Array.from({ length: size.events }, () => instant().getTime()).sort(
    (a, b) => a - b,
  )
  const person = people.find(
    (candidate, index) =>
      index > 0 && candidate.status === 'active' && accountRows[index]!.role !== 'admin',
  )!
  const party = (who: Person) => ({ id: who.id, name: who.name, email: who.email })
  let batch: Insertable<Schema['audit_events']>[] = []
  for (const [index, ms] of eventTimes.entries()) {
    const type = eventType(random)
    // Every 50th event is about the person whose page is measured: a history to page through.
    const target = index % 50 === 0 ? person : random.pick(people)
    const unknownAddress = type === 'sign_in_failed' && random.next() < 0.1
    const actor = BY_AN_ADMIN.has(type)
      ? random.pick(admins)
      : BY_NOBODY.has(type) || unknownAddress
        ? null
        : target
    const account = unknownAddress ? null : party(target)
    const details_ = unknownAddress
      ? { method: 'password', email: `ninguem.${random.int(1000)}@exemplo.com` }
      : details(type, random)
    batch.push({
      id: newEventId(ms),
      at: new Date(ms),
      type,
      actor_id: actor?.id ?? null,
      actor_name: actor?.name ?? null,
      actor_email: actor?.email ?? null,
      account_id: account?.id ?? null,
      account_name: account?.name ?? null,
      account_email: account?.email ?? null,
      ip: actor === null ? null : `177.${random.int(256)}.${random.int(256)}.${random.int(256)}`,
      user_agent: actor === null ? null : random.pick(USER_AGENTS),
      details: JSON.stringify(details_),
    })
    if (batch.length === 50_000) {
      await insertAll(db, 'audit_events', batch)
      batch = []
    }
  }
  await insertAll(db, 'audit_events', batch)
  if (engine === 'postgres') {
    // What autovacuum would do a minute later: the planner's statistics of the new rows.
    await sql`analyze`.execute(db)
  }
  return {
    admin: { id: admin.id, ...BENCH_ADMIN },
    passwordOnlyEmails,
    person: { id: person.id, name: person.name },
    adminRoleId: BUILT_IN_ROLE_IDS.admin,
    customRoleId,
    teamIds,
    from,
    to: new Date(eventTimes.at(-1) ?? now.getTime()),
    seedMs: performance.now() - started,
  }
}
