import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { CreationOptions } from '../../../common/api/webauthn'
import type { StaffItem } from '../../../common/api/staff'
import { backup } from '../../db/backup'
import type { Database } from '../../db/database'
import { ADMIN, apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { SoftwareAuthenticator } from '../../test/software-authenticator'
import { storedDatabase, type StoredDatabase } from '../../test/stored-database'
import { testStoreName } from '../../test/test-database'

/**
 * Issue 43: the free text an admin or the person types may quote the person in any form (a
 * refusal's reason "pedido de Canário Único (canario.unico@…)", a passkey called "Celular do
 * Canário"). Written through every path an admin can type into (an invitation, a rename, an
 * e-mail change, a refusal's reason, a search) and the person's own (a passkey's name), then
 * anonymised: neither the database's files (SQLite with its WAL, or a pg_dump of PostgreSQL), nor
 * a backup taken afterwards, nor the audit CSV holds any of it. anonymise-api.test.ts covers the
 * person's other paths.
 */

const NAME = 'Canário Único'
const LATER_NAME = 'Canário Único Renomeado'
const EMAIL = 'canario.unico@example.com'
const ADMIN_EMAIL = 'canario.unico.novo@example.com'
const PASSWORD = 'senha-do-canario-1'
const INVITATION = 'Painel: você recebeu um convite'
/** What must be gone, in any case. "canário" without its accent too, as a CSV or a dump may. */
/** An address the panel knows nowhere else, typed into a refusal's reason about the person. */
const PRIVATE_EMAIL = 'passaro.amarelo@gmail.example'
const PERSONAL = ['canário', 'canario', 'único', EMAIL, ADMIN_EMAIL, PRIVATE_EMAIL]

let api: ApiFixture
let stored: StoredDatabase
let database: Database
before(async () => {
  stored = await storedDatabase('painel-anon-text-')
  database = stored.database
  api = await apiFixture({ database, authRateLimit: 1_000_000 })
})
after(async () => {
  await api.close()
  await stored.remove()
})

/** The database as an attacker with its files, or a dump, would read it. */
const storedText = () => stored.storedText()

const asText = (parts: Buffer[]) =>
  Buffer.concat(parts).toString('latin1') + Buffer.concat(parts).toString('utf8')

const found = (text: string) =>
  PERSONAL.filter((word) => text.toLowerCase().includes(word.toLowerCase()))

/** The lines that hold what was found, to say where it was left. */
const where = (text: string) =>
  text
    .split('\n')
    .filter((line) => found(line).length > 0)
    .slice(0, 5)
    .join('\n')
    .slice(0, 2000)

describe(`anonymising reaches the free text that quotes the person (${testStoreName()})`, () => {
  it('leaves no quote of them in the database, a later backup or the audit CSV', async () => {
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    // The admin types the person in: an invitation, a search, a rename.
    const invited = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: NAME,
      email: EMAIL,
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201, invited.body)
    const { id } = invited.json<{ user: StaffItem }>().user
    await api.mail.withSubject(EMAIL, INVITATION)
    const link = api.mail.sentWith(EMAIL, INVITATION)[0]!.text
    const token = /recuperar-senha\?token=([A-Za-z0-9_-]{43})/.exec(link)?.[1]
    assert.ok(token, link)
    const set = await api.post('/api/auth/password-reset', { token, password: PASSWORD })
    assert.equal(set.statusCode, 204, set.body)
    const search = await api.get(`/api/staff?q=${encodeURIComponent(NAME)}`, adminToken)
    assert.equal(search.statusCode, 200)
    const renamed = await api.call('PATCH', `/api/staff/${id}`, adminToken, { name: LATER_NAME })
    assert.equal(renamed.statusCode, 200, renamed.body)

    // The person names a passkey after themselves.
    const personToken = await api.signIn(EMAIL, PASSWORD)
    const options = await api.call('POST', '/api/me/passkeys/options', personToken)
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL)
    const passkey = await api.call('POST', '/api/me/passkeys', personToken, {
      response: authenticator.register(options.json<CreationOptions>()),
      name: 'Celular do Canário',
    })
    assert.equal(passkey.statusCode, 201, passkey.body)

    // The person asks for deletion; the admin refuses, quoting them; they ask again.
    const ask = () =>
      api.call('POST', '/api/me/deletion-request', personToken, { password: PASSWORD })
    assert.equal((await ask()).statusCode, 202)
    const refused = await api.call('POST', `/api/staff/${id}/deletion-request/refuse`, adminToken, {
      reason: `Pedido de ${NAME} (${EMAIL}, ou ${PRIVATE_EMAIL}) chegou antes do fim do contrato do Canário.`,
    })
    assert.equal(refused.statusCode, 204, refused.body)
    assert.equal((await ask()).statusCode, 202)

    // The admin changes the e-mail (mails to both addresses), and mail goes out.
    const changed = await api.call('POST', `/api/staff/${id}/email`, adminToken, {
      email: ADMIN_EMAIL,
    })
    assert.ok([200, 202].includes(changed.statusCode), changed.body)
    await api.deliverMail()
    assert.deepEqual(found(await storedText()).sort(), [...PERSONAL].sort(), 'all of it written')

    const anonymised = await api.call('POST', `/api/staff/${id}/anonymise`, adminToken)
    assert.equal(anonymised.statusCode, 204, anonymised.body)

    const left = await storedText()
    assert.deepEqual(found(left), [], `nothing left in the database:\n${where(left)}`)

    if (stored.sqliteDir) {
      const copy = join(stored.sqliteDir, 'copia-depois.db')
      backup(stored.sqliteDir, copy)
      const copied = asText([await readFile(copy)])
      assert.deepEqual(found(copied), [], `nothing left in the backup:\n${where(copied)}`)
    }

    const csv = await api.get('/api/audit.csv', adminToken)
    assert.equal(csv.statusCode, 200)
    assert.match(csv.body, /Exclusão da conta recusada/)
    assert.deepEqual(found(csv.body), [], `nothing left in the CSV:\n${where(csv.body)}`)

    // The decision stays on record, without the admin's words.
    const requests = await database.db
      .selectFrom('deletion_requests')
      .select(['outcome', 'reason'])
      .where('account_id', '=', id)
      .orderBy('requested_at')
      .execute()
    assert.deepEqual(
      requests.map((r) => r.outcome),
      ['refused', 'anonymised'],
    )
    assert.ok(requests.every((r) => r.reason === null))
  })
})
