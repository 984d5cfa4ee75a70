/**
 * The data the overload section reads: a staff of a few thousand people and a year of their
 * audit log (~100k events), written through the panel's own stores (createAccount,
 * recordAudit), so that the rows are what the server itself writes, and a later change to those
 * stores (a column they keep up to date) is in the seeded data too.
 *
 * Deterministic: the same settings give the same people and events (a seeded generator), so
 * two runs measure the same data.
 */
import type { AuditType } from '../../common/api/audit'
import type { AccountStatus } from '../../common/api/account'
import { createAccount } from '../../server/accounts/accounts'
import { hashPassword } from '../../server/accounts/passwords'
import { recordAudit, party, type AuditParty } from '../../server/audit-log/record-audit'
import type { Db } from '../../server/db/database'

export interface SeedSettings {
  people: number
  events: number
  /** Events are spread over this many days before now. */
  days: number
}

export const SEED: SeedSettings = { people: 3000, events: 100_000, days: 365 }

/** A small linear congruential generator: the same seed gives the same data. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  }
}

const FIRST_NAMES = [
  'Ana', 'Beatriz', 'Camila', 'Débora', 'Eduarda', 'Fernanda', 'Gabriela', 'Helena', 'Isabela',
  'Júlia', 'Larissa', 'Mariana', 'Natália', 'Patrícia', 'Rafaela', 'Sofia', 'Tânia', 'Vitória',
  'André', 'Bruno', 'Carlos', 'Diego', 'Eduardo', 'Fábio', 'Gustavo', 'Henrique', 'Ígor', 'João',
  'Lucas', 'Márcio', 'Nicolas', 'Otávio', 'Paulo', 'Rafael', 'Sérgio', 'Thiago', 'Vinícius',
] // prettier-ignore
const LAST_NAMES = [
  'Almeida', 'Araújo', 'Barbosa', 'Cardoso', 'Carvalho', 'Castro', 'Costa', 'Dias', 'Fernandes',
  'Ferreira', 'Gomes', 'Lima', 'Martins', 'Melo', 'Moreira', 'Nascimento', 'Oliveira', 'Pereira',
  'Ribeiro', 'Rocha', 'Rodrigues', 'Santos', 'Silva', 'Soares', 'Sousa', 'Teixeira', 'Vieira',
] // prettier-ignore

/** What a year of a staff's log is mostly made of; none of these mails its owner. */
const EVENT_MIX: readonly [AuditType, number][] = [
  ['sign_in', 0.78],
  ['sign_in_failed', 0.1],
  ['signed_out', 0.06],
  ['session_ended', 0.02],
  ['password_changed', 0.015],
  ['reset_requested', 0.01],
  ['name_changed', 0.005],
  ['password_reset', 0.01],
]

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
]

/** Every seeded account's password, hashed once (hashing thousands would take minutes). */
export const SEEDED_PASSWORD = 'senha-das-pessoas-do-bench'

const BATCH = 1000

/**
 * Writes the staff and their log; returns the e-mails of the active people (the load signs some
 * of them in). The accounts hold no admin: the server's first start makes ADMIN_EMAIL one.
 */
export async function seedStaffAndAudit(
  db: Db,
  settings: SeedSettings = SEED,
  now = new Date(),
): Promise<{ activeEmails: string[] }> {
  const random = generator(44)
  const passwordHash = await hashPassword(SEEDED_PASSWORD)
  const people: (AuditParty & { status: AccountStatus })[] = []
  for (let start = 0; start < settings.people; start += BATCH) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(settings.people, start + BATCH); i++) {
        const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)} ${random.pick(LAST_NAMES)}`
        const roll = random.next()
        const status: AccountStatus = roll < 0.9 ? 'active' : roll < 0.95 ? 'pending' : 'disabled'
        const account = await createAccount(trx, {
          name,
          email: `pessoa-${i}@painel.test`,
          passwordHash,
          role: 'staff',
          status,
        })
        if (account) people.push({ ...party(account), status })
      }
    })
  }
  const active = people.filter((person) => person.status === 'active')
  const spanMs = settings.days * 86_400_000
  const typeOf = () => {
    let roll = random.next()
    for (const [type, share] of EVENT_MIX) {
      roll -= share
      if (roll < 0) return type
    }
    return 'sign_in'
  }
  for (let start = 0; start < settings.events; start += BATCH) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(settings.events, start + BATCH); i++) {
        const person = random.pick(active)
        const type = typeOf()
        await recordAudit(trx, {
          type,
          actor: type === 'sign_in_failed' ? null : person,
          account: person,
          origin: {
            ip: `10.${Math.floor(random.next() * 256)}.${Math.floor(random.next() * 256)}.${Math.floor(random.next() * 256)}`,
            userAgent: random.pick(USER_AGENTS),
          },
          details: type === 'sign_in' ? { method: 'password' } : {},
          at: new Date(now.getTime() - Math.floor(random.next() * spanMs)),
        })
      }
    })
  }
  return { activeEmails: active.map((person) => person.email) }
}
