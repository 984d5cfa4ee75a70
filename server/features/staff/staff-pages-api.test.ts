import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import type { StaffList } from '../../../common/api/staff'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { nameColumns } from '../../db/name-columns'
import { recordAudit } from '../../audit-log/record-audit'
import { roleColumns } from '../../db/role-columns'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { SEARCH_WINDOW } from './staff-list'
import { testStoreName } from '../../test/test-database'
import { COUNT_CAP, LAST_PAGE_COUNT_CAP } from './staff-total'

/**
 * Equipe's keyset pages (staff-order.ts): each order read page after page by its cursors, forward
 * and back, gives every person once and in order, people of the same name included; a person
 * removed or renamed between two pages moves no one else; the totals come from the tallies the
 * database keeps; the search ignores accents, through its index or along the list.
 */

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

/** Accounts written as the server writes them (name sort key, role columns), many at a time. */
async function insertPeople(
  people: { name: string; email: string; status?: 'active' | 'pending' | 'disabled' }[],
  createdFrom = Date.parse('2024-01-01T00:00:00Z'),
): Promise<string[]> {
  const ids: string[] = []
  for (let start = 0; start < people.length; start += 500) {
    const rows = people.slice(start, start + 500).map((person, index) => {
      const id = crypto.randomUUID()
      ids.push(id)
      // Some share a creation instant: the id breaks the tie.
      const created = new Date(createdFrom + Math.floor((start + index) / 3) * 1000)
      return {
        id,
        ...nameColumns(person.name),
        email: person.email,
        password_hash: 'x',
        ...roleColumns(BUILT_IN_ROLE_IDS.staff),
        status: person.status ?? 'active',
        created_at: created,
        updated_at: created,
      }
    })
    await api.database.db.insertInto('accounts').values(rows).execute()
  }
  return ids
}

const list = async (query: string) => {
  const response = await api.get(`/api/staff?${query}`, adminToken)
  assert.equal(response.statusCode, 200, `${query}: ${response.body}`)
  return response.json<StaffList>()
}

/**
 * Every page of a query, by `next` cursors, then back again by `previous` from the last. Going
 * back, the first page comes whole, as "Primeira" shows it: it may repeat a few of the page
 * after it, which are dropped here.
 */
async function walk(query: string): Promise<{ forward: string[]; backward: string[] }> {
  const forward: string[] = []
  let page = await list(query)
  const numbers = [page.page]
  forward.push(...page.items.map((item) => item.id))
  while (page.next) {
    page = await list(`${query}&after=${page.next}`)
    numbers.push(page.page)
    forward.push(...page.items.map((item) => item.id))
  }
  assert.deepEqual(
    numbers,
    numbers.map((_, index) => index + 1),
    'each page says its number',
  )
  const pages: string[][] = []
  page = await list(`${query}&page=last`)
  assert.equal(page.page, numbers.length, 'the last page knows its number')
  pages.unshift(page.items.map((item) => item.id))
  while (page.previous) {
    page = await list(`${query}&before=${page.previous}`)
    pages.unshift(page.items.map((item) => item.id))
  }
  assert.equal(page.page, 1)
  assert.deepEqual(pages[0], forward.slice(0, pages[0]!.length), 'the first page, whole')
  const backward: string[] = []
  for (const ids of pages) backward.push(...ids.filter((id) => !backward.includes(id)))
  return { forward, backward }
}

describe(`Equipe's keyset pages (${testStoreName()})`, () => {
  const DOMAIN = 'paginas.example.com'
  let ids: string[]
  before(async () => {
    // Ties everywhere: the same name, names of the same sort key, and shared creation times.
    const names = [
      ...Array.from({ length: 9 }, () => 'Ana Souza'),
      ...Array.from({ length: 4 }, () => 'Ána Souza'),
      ...Array.from({ length: 4 }, () => 'ANA SOUZA'),
      'Álvaro',
      'Zé',
      'Éder',
      'João',
      'Joao',
      'José',
    ]
    ids = await insertPeople(
      names.map((name, index) => ({
        name,
        email: `p${index}@${DOMAIN}`,
        status: index % 7 === 0 ? 'pending' : 'active',
      })),
    )
    // Some signed in, at times some of them share.
    for (const [index, id] of ids.entries()) {
      if (index % 3 === 0) continue
      await recordAudit(api.database.db, {
        type: 'sign_in',
        account: { id, name: 'x', email: 'x' },
        at: new Date(Date.parse('2025-06-01T00:00:00Z') + Math.floor(index / 2) * 60_000),
      })
    }
  })

  for (const sort of [
    '',
    'name',
    '-name',
    'createdAt',
    '-createdAt',
    'lastSignInAt',
    '-lastSignInAt',
  ]) {
    it(`reads ${sort || 'the default order'} page by page, forward and back, everyone once, in order`, async () => {
      const query = `q=${DOMAIN}&pageSize=4${sort ? `&sort=${sort}` : ''}`
      const whole = (await list(`q=${DOMAIN}&pageSize=100${sort ? `&sort=${sort}` : ''}`)).items
      assert.equal(whole.length, ids.length)
      const { forward, backward } = await walk(query)
      assert.deepEqual(
        forward,
        whole.map((item) => item.id),
      )
      assert.deepEqual(backward, forward)
      // page=n of older callers reads the same order.
      const third = await list(`${query}&page=3`)
      assert.deepEqual(
        third.items.map((item) => item.id),
        forward.slice(8, 12),
      )
      if (sort === 'lastSignInAt' || sort === '-lastSignInAt') {
        const never = whole.filter((item) => item.lastSignInAt === null)
        assert.deepEqual(whole.slice(-never.length), never, 'never signed in: last, either way')
      }
      if (sort === '') {
        const pending = whole.filter((item) => item.status === 'pending').length
        assert.ok(whole.slice(0, pending).every((item) => item.status === 'pending'))
      }
    })
  }

  it('moves no one else when a person is removed or renamed between two pages', async () => {
    const query = `q=${DOMAIN}&sort=name&pageSize=5`
    const first = await list(query)
    const whole = (await list(`q=${DOMAIN}&sort=name&pageSize=100`)).items.map((item) => item.id)
    // The last person of the first page goes, and one of the third page is renamed to sort first.
    const removed = first.items.at(-1)!.id
    const renamed = whole[12]!
    await api.database.db.deleteFrom('accounts').where('id', '=', removed).execute()
    const renaming = await api.call('PATCH', `/api/staff/${renamed}`, adminToken, { name: 'Aaron' })
    assert.equal(renaming.statusCode, 200, renaming.body)
    const seen = first.items.map((item) => item.id)
    let page = first
    while (page.next) {
      page = await list(`${query}&after=${page.next}`)
      seen.push(...page.items.map((item) => item.id))
    }
    assert.deepEqual(
      seen,
      whole.filter((id) => id !== renamed),
      'the rest in order, none twice, none skipped; the renamed person is now before the cursor',
    )
    ids = ids.filter((id) => id !== removed)
  })

  it('keeps the totals in step with every write, by status, role and team', async () => {
    const count = async (where: string) =>
      Number(
        (
          await sql<{
            n: number | string
          }>`select count(*) as n from accounts where ${sql.raw(where)}`.execute(api.database.db)
        ).rows[0]!.n,
      )
    const someone = await api.account('total')
    const before = await list('status=disabled')
    assert.equal(before.totalExact, true)
    assert.equal(before.total, await count(`status = 'disabled'`))
    await api.call('PATCH', `/api/staff/${someone.id}`, adminToken, { status: 'disabled' })
    const after = await list('status=disabled')
    assert.equal(after.total, before.total + 1)
    assert.equal((await list('')).total, await count('1 = 1'))
    assert.equal(
      (await list('status=active')).total,
      await count(`status = 'active' and invitation_expires_at is null`),
    )
    assert.equal((await list('role=admin')).total, await count(`role = 'admin'`))
    assert.equal((await list('teamId=none')).total, await count('team_id is null'))
    // A second factor, whatever writes it: the flag, the filter and its total follow.
    const withFactor = async () => (await list('mfa=true')).total
    const factors = await withFactor()
    await api.database.db
      .insertInto('totp_factors')
      .values({
        account_id: someone.id,
        secret: 'x',
        created_at: new Date(),
        confirmed_at: null,
        last_step: null,
      })
      .execute()
    assert.equal(await withFactor(), factors, 'an app not confirmed yet is no second factor')
    await api.database.db
      .updateTable('totp_factors')
      .set({ confirmed_at: new Date() })
      .where('account_id', '=', someone.id)
      .execute()
    assert.equal(await withFactor(), factors + 1)
    assert.ok((await list('mfa=true&status=disabled')).items.some((item) => item.id === someone.id))
    await api.database.db
      .insertInto('passkeys')
      .values({
        id: crypto.randomUUID(),
        account_id: someone.id,
        credential_id: 'c',
        public_key: 'k',
        counter: 0,
        transports: '[]',
        name: 'Chave',
        created_at: new Date(),
        last_used_at: null,
      })
      .execute()
    await api.database.db.deleteFrom('totp_factors').where('account_id', '=', someone.id).execute()
    assert.equal(await withFactor(), factors + 1, 'the passkey is still one')
    await api.database.db.deleteFrom('passkeys').where('account_id', '=', someone.id).execute()
    assert.equal(await withFactor(), factors)
    assert.equal(
      (await list('mfa=false')).total,
      await count(
        `not exists (select 1 from totp_factors where totp_factors.account_id = accounts.id and confirmed_at is not null) and not exists (select 1 from passkeys where passkeys.account_id = accounts.id)`,
      ),
    )
    await api.database.db.deleteFrom('accounts').where('id', '=', someone.id).execute()
    assert.equal((await list('status=disabled')).total, before.total)
  })

  it('refuses a cursor it did not make, one of another order, and two positions at once', async () => {
    const first = await list(`q=${DOMAIN}&sort=name&pageSize=3`)
    for (const query of [
      `after=bm9wZQ`,
      `sort=-name&after=${first.next}`,
      `sort=name&after=${first.next}&page=2`,
      `sort=name&before=${first.next}&after=${first.next}`,
    ]) {
      const response = await api.get(`/api/staff?${query}`, adminToken)
      assert.equal(response.statusCode, 400, query)
    }
  })
})

describe(`Equipe's search, accents and case ignored (${testStoreName()})`, () => {
  const DOMAIN = 'busca.example.com'
  before(async () => {
    // Many people ahead of the rare ones in the list's order: the search goes past its window.
    await insertPeople(
      Array.from({ length: 1200 }, (_, index) => ({
        name: `Abel Ferreira ${String(index).padStart(4, '0')}`,
        email: `abel${index}@${DOMAIN}`,
      })),
    )
    await insertPeople([
      { name: 'João Conceição', email: `jc@${DOMAIN}` },
      { name: 'Zuleica Conceição Brandão', email: `zcb@${DOMAIN}` },
      { name: 'Joana Assunção', email: `ja@${DOMAIN}` },
      { name: 'Maria Joao', email: `mj@${DOMAIN}` },
    ])
  })

  /** The names found, of this part's people (the other part's have their own João). */
  const names = async (q: string) =>
    (await list(`q=${encodeURIComponent(q)}&sort=name&pageSize=100`)).items
      .filter((item) => item.email.endsWith(`@${DOMAIN}`))
      .map((item) => item.name)

  it('finds names whatever accents and case the search or the name has', async () => {
    assert.deepEqual(await names('joao'), ['João Conceição', 'Maria Joao'])
    assert.deepEqual(await names('JOÃO'), ['João Conceição', 'Maria Joao'])
    assert.deepEqual(await names('conceicao'), ['João Conceição', 'Zuleica Conceição Brandão'])
    assert.deepEqual(await names('Conceição Brandão'), ['Zuleica Conceição Brandão'])
    assert.deepEqual(await names('assuncao'), ['Joana Assunção'])
    // Two letters: no trigram to look up, so the list is read, and finds them all the same.
    assert.ok((await names('jo')).includes('João Conceição'))
  })

  it('finds e-mails, and takes % and _ as themselves', async () => {
    assert.deepEqual(await names(`zcb@${DOMAIN}`), ['Zuleica Conceição Brandão'])
    assert.deepEqual(await names('100%'), [])
    assert.deepEqual(await names('abel_1'), [])
  })

  it('counts matches up to the cap, and says when there are more', async () => {
    const common = await list(`q=abel&pageSize=5`)
    assert.equal(common.items.length, 5)
    assert.equal(common.totalExact, false)
    assert.equal(common.total, COUNT_CAP)
    const rare = await list(`q=conceicao`)
    assert.equal(rare.totalExact, true)
    assert.equal(rare.total, 2)
    // The last page of a search past the cap is numbered from the exact count.
    const last = await list(`q=abel&pageSize=100&page=last`)
    assert.equal(last.page, 12)
    assert.equal(last.items.at(-1)!.name, 'Abel Ferreira 1199')
  })
})

describe(`the last page of a search that keeps very many (${testStoreName()})`, () => {
  const DOMAIN = 'multidao.example.com'
  before(async () => {
    await insertPeople(
      Array.from({ length: LAST_PAGE_COUNT_CAP + 1 }, (_, index) => ({
        name: `Multidão ${String(index).padStart(5, '0')}`,
        email: `m${index}@${DOMAIN}`,
      })),
    )
  })

  it('is refused with a way to it: counting them all to number it would hold the server', async () => {
    const response = await api.get('/api/staff?q=multidao&page=last', adminToken)
    assert.equal(response.statusCode, 400, response.body)
    assert.match(
      response.json<{ error: { message: string } }>().error.message,
      /^Mais de 5\.000 contas nesta lista: .*inverta a ordem\.$/,
    )
    // The same people, last first: the reverse order's first page.
    const reversed = await list('q=multidao&sort=-name&pageSize=3')
    assert.deepEqual(
      reversed.items.map((item) => item.name),
      ['Multidão 05000', 'Multidão 04999', 'Multidão 04998'],
    )
  })
})

describe(`a search whose matches lie on both sides of its window's end (${testStoreName()})`, () => {
  const DOMAIN = 'vitral.example.com'
  let matches: string[]
  before(async () => {
    // More people than the window (SEARCH_WINDOW), one in every 150 a match: the window read
    // from the start of the list ends among them, and the rest are past it.
    const count = SEARCH_WINDOW + 400
    const number = (index: number) => String(index).padStart(5, '0')
    const people = Array.from({ length: count }, (_, index) => ({
      name: index % 150 === 7 ? `Pessoa ${number(index)} Janela` : `Pessoa ${number(index)}`,
      email: `p${index}@${DOMAIN}`,
      status: index % 9 === 0 ? ('pending' as const) : ('active' as const),
    }))
    const ids = await insertPeople(people)
    matches = ids.filter((_, index) => index % 150 === 7)
  })

  for (const sort of ['', 'name', '-name']) {
    it(`finds every match in ${sort || 'the default order'}, page by page, forward and back`, async () => {
      const query = `q=janela&pageSize=4${sort ? `&sort=${sort}` : ''}`
      const whole = (await list(`q=janela&pageSize=100${sort ? `&sort=${sort}` : ''}`)).items
      assert.deepEqual(new Set(whole.map((item) => item.id)), new Set(matches))
      const { forward, backward } = await walk(query)
      assert.deepEqual(
        forward,
        whole.map((item) => item.id),
      )
      assert.deepEqual(backward, forward)
    })
  }

  it('reads the order of the list: by name, then by number within a name', async () => {
    const names = (await list('q=janela&sort=name&pageSize=100')).items.map((item) => item.name)
    assert.deepEqual(
      names,
      [...names].sort((a, b) => (a < b ? -1 : 1)),
    )
    assert.equal(names.length, matches.length)
  })
})

describe(`a rare name far along the order of names, with namesakes (${testStoreName()})`, () => {
  const DOMAIN = 'xara.example.com'
  let everyone: { id: string; name: string; status: string }[]
  before(async () => {
    // More than a window (SEARCH_WINDOW) of others on each side of them in the order of names:
    // the window a search first reads from either end holds none of them, so the first page of
    // either direction comes from the search index in name order (staff-list.ts, inNameOrder),
    // and a page boundary falls among people of the same name, and of the same name but for
    // case and accents (one sort key).
    const others = Array.from({ length: SEARCH_WINDOW + 10 }, (_, index) => index)
    await insertPeople([
      ...others.map((index) => ({
        name: `Bruno ${String(index).padStart(5, '0')}`,
        email: `b${index}@${DOMAIN}`,
      })),
      ...others.map((index) => ({
        name: `Zuleide ${String(index).padStart(5, '0')}`,
        email: `u${index}@${DOMAIN}`,
      })),
    ])
    const names = [
      ...Array.from({ length: 14 }, () => 'Zenóbia Ramos'),
      ...Array.from({ length: 5 }, () => 'zenobia ramos'),
      ...Array.from({ length: 6 }, (_, index) => `Zenóbia Souza ${index}`),
    ]
    const statuses = ['active', 'active', 'pending', 'active', 'disabled'] as const
    const people = names.map((name, index) => ({
      name,
      email: `z${index}@${DOMAIN}`,
      status: statuses[index % statuses.length]!,
    }))
    const ids = await insertPeople(people)
    everyone = people.map((person, index) => ({ ...person, id: ids[index]! }))
  })

  /** The order of names as the database keeps it: sort key, name, id, each in byte order. */
  const byName = (a: { name: string; id: string }, b: { name: string; id: string }) => {
    const key = (person: { name: string; id: string }) => [
      nameColumns(person.name).name_sort_key,
      person.name,
      person.id,
    ]
    const [left, right] = [key(a), key(b)]
    for (let index = 0; index < left.length; index += 1) {
      const order = Buffer.compare(Buffer.from(left[index]!), Buffer.from(right[index]!))
      if (order !== 0) return order
    }
    return 0
  }

  for (const [label, filter, keep] of [
    ['everyone', '', () => true],
    ['the active only', '&status=active', (status: string) => status === 'active'],
  ] as const) {
    for (const sort of ['name', '-name']) {
      it(`reads ${label} in order ${sort}, page by page, forward and back`, async () => {
        const expected = everyone
          .filter((person) => keep(person.status))
          .sort(byName)
          .map((person) => person.id)
        if (sort === '-name') expected.reverse()
        const { forward, backward } = await walk(`q=zenobia&pageSize=4&sort=${sort}${filter}`)
        assert.deepEqual(forward, expected)
        assert.deepEqual(backward, expected)
      })
    }
  }
})

describe(`Equipe's locked accounts (${testStoreName()})`, () => {
  it('shows only the locked, once each and in order, by page number, by cursor and from the end', async () => {
    const people = Array.from({ length: 30 }, (_, index) => ({
      name: `Trancado ${String(index).padStart(2, '0')}`,
      email: `trancado-${index}@bloqueio.example.com`,
    }))
    await insertPeople(people)
    // Every third is locked: a lock in force on its account's key (sign-in-limits.ts).
    const locked = people.filter((_, index) => index % 3 === 0)
    const until = new Date(Date.now() + 3_600_000)
    await api.database.db
      .insertInto('sign_in_limits')
      .values(
        locked.map((person) => ({
          key: `account:${person.email}`,
          account: person.email,
          count: 10,
          window_ends_at: until,
          blocked_until: until,
        })),
      )
      .execute()
    const expected = locked.map((person) => person.name)
    const query = 'q=trancado&locked=true&pageSize=3'

    const byNumber: string[] = []
    for (let page = 1; page <= 4; page++) {
      const { items } = await list(`${query}&page=${page}`)
      assert.ok(items.every((item) => item.locked))
      byNumber.push(...items.map((item) => item.name))
    }
    assert.deepEqual(byNumber, expected)

    const byCursor: string[] = []
    let next: string | null = ''
    while (next !== null) {
      const page: StaffList = await list(next ? `${query}&after=${next}` : query)
      byCursor.push(...page.items.map((item) => item.name))
      next = page.next
    }
    assert.deepEqual(byCursor, expected)

    // The end of the list, a whole page of it.
    const last = await list(`${query}&page=last`)
    assert.deepEqual(
      last.items.map((item) => item.name),
      expected.slice(-3),
    )
    assert.equal(last.page, 4)
  })

  it('follows every way a lock comes and goes, whatever writes it', async () => {
    const db = api.database.db
    const DOMAIN = 'tranca.example.com'
    const soon = new Date(Date.now() + 3_600_000)
    const lock = (email: string, blockedUntil: Date) => ({
      key: `account:${email}`,
      account: email,
      count: 10,
      window_ends_at: soon,
      blocked_until: blockedUntil,
    })
    const lockedNames = async () =>
      (await list(`q=${DOMAIN}&locked=true&pageSize=100`)).items.map((item) => item.name)
    // A lock in force; one that ended; a count below the threshold (no wait: the epoch).
    await insertPeople([
      { name: 'Ana Tranca', email: `ana@${DOMAIN}` },
      { name: 'Bia Tranca', email: `bia@${DOMAIN}` },
      { name: 'Caio Tranca', email: `caio@${DOMAIN}` },
    ])
    await db
      .insertInto('sign_in_limits')
      .values([
        lock(`ana@${DOMAIN}`, soon),
        lock(`bia@${DOMAIN}`, new Date(Date.now() - 60_000)),
        lock(`caio@${DOMAIN}`, new Date(0)),
      ])
      .execute()
    assert.deepEqual(await lockedNames(), ['Ana Tranca'])
    // The wait grows on a count already there.
    await db
      .updateTable('sign_in_limits')
      .set({ blocked_until: soon })
      .where('key', '=', `account:caio@${DOMAIN}`)
      .execute()
    assert.deepEqual(await lockedNames(), ['Ana Tranca', 'Caio Tranca'])
    // Guesses at an address before its account exists: the account is made locked.
    await db
      .insertInto('sign_in_limits')
      .values(lock(`davi@${DOMAIN}`, soon))
      .execute()
    await insertPeople([{ name: 'Davi Tranca', email: `davi@${DOMAIN}` }])
    assert.deepEqual(await lockedNames(), ['Ana Tranca', 'Caio Tranca', 'Davi Tranca'])
    // A new e-mail: the lock was on the old one.
    await db
      .updateTable('accounts')
      .set({ email: `ana.nova@${DOMAIN}` })
      .where('email', '=', `ana@${DOMAIN}`)
      .execute()
    // Unlocked by an admin (the rows go), and by housekeeping.
    await db.deleteFrom('sign_in_limits').where('account', '=', `caio@${DOMAIN}`).execute()
    assert.deepEqual(await lockedNames(), ['Davi Tranca'])
    const rows = await db
      .selectFrom('accounts')
      .select(['email', 'locked_until'])
      .where('email', 'like', `%@${DOMAIN}`)
      .orderBy('email')
      .execute()
    assert.deepEqual(
      rows.map((row) => [row.email, row.locked_until !== null]),
      [
        [`ana.nova@${DOMAIN}`, false],
        [`bia@${DOMAIN}`, true],
        [`caio@${DOMAIN}`, false],
        [`davi@${DOMAIN}`, true],
      ],
      'an ended lock stays on the account until its row goes; no lock, no end',
    )
  })
})
