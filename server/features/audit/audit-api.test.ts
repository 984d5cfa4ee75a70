import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AuditPage } from '../../../common/api/audit'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { turnsDuring } from '../../test/helpers'
import { AUDIT_PAGE_SIZE, pruneAudit } from '../../audit-log/audit-query'
import { newEventId } from '../../audit-log/event-id'
import { recordAudit } from '../../audit-log/record-audit'

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

const page = async (query: string) => {
  const response = await api.get(`/api/audit${query}`, adminToken)
  assert.equal(response.statusCode, 200, response.body)
  return response.json<AuditPage>()
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'

describe(`/api/audit (${testStoreName()})`, () => {
  it('records a sign-in with its address and browser, and never a password', async () => {
    await api.addAccount({ email: 'quem@example.com', password: 'senha-secreta-1', name: 'Quem' })
    await api.post(
      '/api/auth/login',
      { email: 'quem@example.com', password: 'senha-secreta-1' },
      { 'user-agent': IPHONE },
    )
    await api.post('/api/auth/login', { email: 'quem@example.com', password: 'errada-1234' })
    await api.post('/api/auth/login', { email: 'ninguem@example.com', password: 'errada-1234' })
    const { events } = await page('')
    const signIn = events.find(
      (event) => event.type === 'sign_in' && event.account?.name === 'Quem',
    )
    assert.ok(signIn)
    // The User-Agent as sent, for whoever investigates; the browser in words, for the screen.
    assert.equal(signIn.userAgent, IPHONE)
    assert.equal(signIn.browser, 'Safari no iPhone')
    assert.equal(signIn.ip, '127.0.0.1')
    assert.deepEqual(signIn.details, { method: 'password' })
    const unknown = events.find((event) => event.type === 'sign_in_failed' && !event.account)
    assert.deepEqual(unknown?.details, { email: 'ninguem@example.com' })
    const all = JSON.stringify(events)
    assert.doesNotMatch(all, /senha-secreta|errada-1234|scrypt/)
  })

  it('filters by type, account, actor and period, newest first, paged by cursor', async () => {
    const id = await api.addAccount({ email: 'pagina@example.com', password: 'senha-pag-12' })
    const party = { id, name: 'Página', email: 'pagina@example.com' }
    const base = Date.parse('2020-01-01T00:00:00.000Z')
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      await recordAudit(api.database.db, {
        type: 'sign_in',
        account: party,
        actor: party,
        // Two events share each millisecond: the cursor must still lose none and repeat none.
        at: new Date(base + Math.floor(i / 2)),
      })
    }
    const first = await page(`?account=${id.toUpperCase()}&type=sign_in`)
    assert.equal(first.events.length, AUDIT_PAGE_SIZE)
    assert.ok(first.next)
    const second = await page(
      `?account=${id}&type=sign_in&before=${encodeURIComponent(first.next)}`,
    )
    assert.equal(second.events.length, 5)
    assert.equal(second.next, null)
    const ids = [...first.events, ...second.events].map((event) => event.id)
    assert.equal(new Set(ids).size, AUDIT_PAGE_SIZE + 5)
    const times = [...first.events, ...second.events].map((event) => event.at)
    assert.deepEqual(times, [...times].sort().reverse())

    const period = await page(
      `?account=${id}&from=2020-01-01T00:00:00.010Z&to=2020-01-01T00:00:00.012Z`,
    )
    assert.equal(period.events.length, 4)
    assert.equal((await page(`?actor=${id}&type=approved`)).events.length, 0)
  })

  it('lists events of the same millisecond newest first, in the order they were written', async () => {
    const id = await api.addAccount({ email: 'ordem@example.com', password: 'senha-ordem-1' })
    const party = { id, name: 'Ordem', email: 'ordem@example.com' }
    const at = new Date('2021-03-04T05:06:07.089Z')
    const written = Array.from({ length: 12 }, (_, i) => `passo-${i}`)
    for (const step of written) {
      await recordAudit(api.database.db, {
        type: 'role_changed',
        account: party,
        at,
        details: { step },
      })
    }
    // The role changes alone: each also queued its owner's notice (security-notices/).
    const { events } = await page(`?account=${id}&type=role_changed`)
    assert.deepEqual(
      events.map((event) => event.details.step),
      [...written].reverse(),
    )
  })

  it('refuses bad filters with 400', async () => {
    for (const query of [
      '?type=hacked',
      '?account=nope',
      '?from=yesterday',
      '?before=abc',
      '?before=2020-01-01T00:00:00.000Z~x',
      '?limit=5',
    ]) {
      const response = await api.get(`/api/audit${query}`, adminToken)
      assert.equal(response.statusCode, 400, query)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'invalid_input')
    }
  })

  it('keeps the event and the change together: a failed transaction leaves no event', async () => {
    const before = (await page('?type=disabled')).events.length
    await assert.rejects(
      api.database.db.transaction().execute(async (trx) => {
        await recordAudit(trx, { type: 'disabled' })
        throw new Error('the change failed')
      }),
      /the change failed/,
    )
    assert.equal((await page('?type=disabled')).events.length, before)
  })

  it('exports CSV: UTF-8 with BOM, `;`-separated, pt-BR headers, formulas neutralised', async () => {
    const names = ['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', 'Conceição; "a"']
    for (const name of names) {
      await recordAudit(api.database.db, {
        type: 'registered',
        account: { id: crypto.randomUUID(), name, email: `${name.length}@csv.test` },
      })
    }
    const response = await api.get('/api/audit.csv?type=registered', adminToken)
    assert.equal(response.statusCode, 200)
    assert.match(String(response.headers['content-type']), /^text\/csv; charset=utf-8/)
    assert.match(
      String(response.headers['content-disposition']),
      /attachment; filename="auditoria-/,
    )
    const bytes = response.rawPayload
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf])
    const text = bytes.subarray(3).toString('utf8')
    const lines = text.trimEnd().split('\r\n')
    assert.equal(
      lines[0],
      'Quando;Evento;Quem fez;E-mail de quem fez;Conta;E-mail da conta;Endereço;Navegador;Detalhes;User-Agent',
    )
    assert.equal(lines.length, 1 + names.length)
    assert.ok(lines.slice(1).every((line) => line.includes(';Cadastro recebido;Sistema;')))
    assert.match(text, /;"'=HYPERLINK\(""http:\/\/x""\)";/)
    assert.match(text, /;'\+1;/)
    assert.match(text, /;'-2;/)
    assert.match(text, /;'@SUM\(A1\);/)
    assert.match(text, /;"Conceição; ""a""";/)
    assert.doesNotMatch(text, /;[=+@-][^;]*;\d+@csv/)
  })

  it('writes the CSV in words: details as on the screen, times in the zone asked for', async () => {
    const person = await api.account('csv-palavras')
    const at = new Date('2026-11-25T17:03:41Z')
    await recordAudit(api.database.db, {
      type: 'session_ended',
      actor: person,
      account: person,
      details: { sessions: 1, by: 'owner', which: 'one' },
      at,
    })
    await recordAudit(api.database.db, {
      type: 'passkey_added',
      actor: person,
      account: person,
      details: { passkey: crypto.randomUUID(), name: 'Notebook' },
      at: new Date(at.getTime() + 1),
    })
    const csv = async (query: string) => {
      const response = await api.get(`/api/audit.csv?account=${person.id}${query}`, adminToken)
      assert.equal(response.statusCode, 200, response.body)
      const lines = response.rawPayload.subarray(3).toString('utf8').trimEnd().split('\r\n')
      // The notice the passkey's owner was sent (security-notices/) is said in its line.
      return lines.slice(1)
    }
    const [passkey, sessions] = await csv('&tz=America/Sao_Paulo')
    assert.equal(
      sessions,
      `2026-11-25 14:03 -03:00;Sessões encerradas;${person.name};${person.email};` +
        `${person.name};${person.email};;;encerrou 1 das próprias sessões;`,
    )
    assert.match(
      passkey!,
      /^2026-11-25 14:03 -03:00;Chave de acesso adicionada;.*;"chave de acesso «Notebook», aviso enviado por e-mail";$/,
    )
    assert.match((await csv(''))[0]!, /^2026-11-25 17:03 \+00:00;/)
    assert.match((await csv('&tz=Asia/Kolkata'))[0]!, /^2026-11-25 22:33 \+05:30;/)
    for (const tz of ['Marte/Olympus', 'UTC+3', '../etc']) {
      const refused = await api.get(`/api/audit.csv?tz=${encodeURIComponent(tz)}`, adminToken)
      assert.equal(refused.statusCode, 400, tz)
      assert.equal(errorOf(refused).code, 'invalid_input')
    }
  })

  it('streams the whole CSV, chunk after chunk, every event once, newest first', async () => {
    const person = await api.account('csv-inteiro')
    const base = Date.parse('2019-05-01T12:00:00.000Z')
    const count = 2345
    const rows = Array.from({ length: count }, (_, index) => {
      // Three events share each millisecond: the chunks' cursor must still lose and repeat none.
      const at = base + Math.floor(index / 3)
      return {
        id: newEventId(at),
        at: new Date(at),
        type: 'signed_out',
        account_id: person.id,
        account_name: person.name,
        account_email: person.email,
        ip: `10.${Math.floor(index / 256)}.${index % 256}.1`,
        details: '{}',
      }
    })
    for (let start = 0; start < count; start += 500) {
      await api.database.db
        .insertInto('audit_events')
        .values(rows.slice(start, start + 500))
        .execute()
    }
    const response = await api.get(
      `/api/audit.csv?account=${person.id}&type=signed_out`,
      adminToken,
    )
    assert.equal(response.statusCode, 200)
    const lines = response.rawPayload.subarray(3).toString('utf8').trimEnd().split('\r\n').slice(1)
    assert.equal(lines.length, count)
    const addresses = lines.map((line) => line.split(';')[6])
    assert.equal(new Set(addresses).size, count)
    assert.deepEqual(
      addresses,
      [...rows].reverse().map((row) => row.ip),
    )
  })

  it('writes each time with the offset of its own moment, across a change of summer time', async () => {
    const person = await api.account('csv-verao')
    for (const at of [
      '2025-03-30T00:59:00.000Z',
      '2025-03-30T01:00:00.000Z',
      '2025-10-26T00:59:00.000Z',
      '2025-10-26T01:00:00.000Z',
    ]) {
      await recordAudit(api.database.db, {
        type: 'data_exported',
        account: person,
        at: new Date(at),
      })
    }
    const response = await api.get(
      `/api/audit.csv?account=${person.id}&type=data_exported&tz=Europe/Lisbon`,
      adminToken,
    )
    const times = response.rawPayload
      .subarray(3)
      .toString('utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(';')[0])
    assert.deepEqual(times, [
      '2025-10-26 01:00 +00:00',
      '2025-10-26 01:59 +01:00',
      '2025-03-30 02:00 +01:00',
      '2025-03-30 00:59 +00:00',
    ])
  })

  it('prunes events older than the retention', async () => {
    await recordAudit(api.database.db, { type: 'locked', at: new Date('2001-01-01T00:00:00Z') })
    assert.equal((await page('?to=2002-01-01T00:00:00.000Z')).events.length, 1)
    const turns = await turnsDuring(() => pruneAudit(api.database.db, 365))
    assert.equal((await page('?to=2002-01-01T00:00:00.000Z')).events.length, 0)
    // The 2,345 of 2019 written above too, at most a hundred a statement: a turn after each.
    assert.equal((await page('?to=2020-01-01T00:00:00.000Z')).events.length, 0)
    assert.ok(turns >= 23, `${turns} turns of the event loop`)
    assert.ok((await page('')).events.length > 0)
  })
})
