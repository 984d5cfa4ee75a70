import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { namedOnlyProvider } from '../../test/oidc-test-provider'
import { testStoreName } from '../../test/test-database'
import { recordAudit } from '../../audit-log/record-audit'
import { FIREFOX_LINUX } from '../../test/user-agents'

/**
 * The CSV says what the Auditoria screen says (common/audit-event-words.ts): the browser in
 * words, a provider by its label (AUTH_<NAME>_LABEL) and not by the name the operator gave it,
 * and who tried a sign-in nobody's account answered to ("Alguém", not "Sistema").
 */

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture({
    authProviders: [namedOnlyProvider('idt', PUBLIC_URL)],
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

/** One line's fields: `;`-separated, a field in quotes when it holds `;`, `,` or quotes. */
function fieldsOf(line: string): string[] {
  const fields: string[] = []
  for (let at = 0; at <= line.length;) {
    if (line[at] === '"') {
      let value = ''
      let end = at + 1
      for (;;) {
        const quote = line.indexOf('"', end)
        value += line.slice(end, quote)
        if (line[quote + 1] === '"') {
          value += '"'
          end = quote + 2
        } else {
          end = quote + 1
          break
        }
      }
      fields.push(value)
      at = end + 1
    } else {
      const next = line.indexOf(';', at)
      const end = next === -1 ? line.length : next
      fields.push(line.slice(at, end))
      at = end + 1
    }
  }
  return fields
}

/** The columns of the last CSV read, as its header names them. */
let columns: string[] = []

async function csvLines(query: string): Promise<string[][]> {
  const response = await api.get(`/api/audit.csv?${query}`, adminToken)
  assert.equal(response.statusCode, 200, response.body)
  const [header, ...rows] = response.rawPayload.subarray(3).toString('utf8').trimEnd().split('\r\n')
  columns = fieldsOf(header!)
  return rows.map((row) => {
    const fields = fieldsOf(row)
    assert.equal(fields.length, columns.length, row)
    return fields
  })
}

/** Where the column of this name is in the last CSV read (by its header, not a copy of it). */
function column(name: string): number {
  const index = columns.indexOf(name)
  assert.ok(index >= 0, `no column "${name}" in ${columns.join(';')}`)
  return index
}

describe(`the audit CSV in the screen's words (${testStoreName()})`, () => {
  it('names the browser as the screen does, and keeps the User-Agent as sent beside it', async () => {
    const person = await api.account('csv-navegador')
    await recordAudit(api.database.db, {
      type: 'password_changed',
      actor: person,
      account: person,
      origin: { ip: '203.0.113.9', userAgent: FIREFOX_LINUX },
    })
    const [row] = await csvLines(`account=${person.id}`)
    assert.equal(row![column('Navegador')], 'Firefox no Linux')
    assert.equal(row![column('User-Agent')], FIREFOX_LINUX)
  })

  it('names a provider by its label, and "Alguém" as who tried a sign-in that named no account', async () => {
    await recordAudit(api.database.db, {
      type: 'sign_in_failed',
      origin: { ip: '203.0.113.10', userAgent: FIREFOX_LINUX },
      details: { method: 'provider', provider: 'idt', reason: 'cancelled' },
    })
    const rows = await csvLines('type=sign_in_failed')
    const row = rows.find((fields) => fields[column('Endereço')] === '203.0.113.10')
    assert.ok(row, JSON.stringify(rows))
    assert.equal(row[column('Quem fez')], 'Alguém')
    assert.equal(
      row[column('Detalhes')],
      'pelo provedor «Conta Corporativa», cancelada no provedor',
    )
    assert.doesNotMatch(row.join(';'), /idt|Sistema/)
  })

  it('says a linked provider by its label too', async () => {
    const person = await api.account('csv-vinculo')
    await recordAudit(api.database.db, {
      type: 'provider_linked',
      actor: person,
      account: person,
      details: { provider: 'idt', by: 'password' },
    })
    const [row] = await csvLines(`account=${person.id}&type=provider_linked`)
    assert.match(row![column('Detalhes')]!, /^pelo provedor «Conta Corporativa», com a senha/)
  })
})
