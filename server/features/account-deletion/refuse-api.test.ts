import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { DeletionRequestList } from '../../../common/api/account-deletion'
import { ADMIN, errorOf } from '../../test/api-fixture'
import { signedInAdminFixture } from '../../test/signed-in-admin-fixture'
import { testStoreName } from '../../test/test-database'

const suite = signedInAdminFixture()

const SUBJECT = 'Painel: seu pedido de exclusão da conta foi recusado'
const refuse = (id: string, body: object, token = suite.adminToken) =>
  suite.api.call('POST', `/api/staff/${id}/deletion-request/refuse`, token, body)
const openRequests = async () =>
  (
    await suite.api.get('/api/staff/deletion-requests', suite.adminToken)
  ).json<DeletionRequestList>().requests
/** A signed-in person who has asked for their account to be deleted. */
async function asker(label: string) {
  const person = await suite.api.person(label)
  const asked = await suite.api.call('POST', '/api/me/deletion-request', person.token, {
    password: person.password,
  })
  assert.equal(asked.statusCode, 202, asked.body)
  return person
}

describe(`POST /api/staff/:id/deletion-request/refuse (${testStoreName()})`, () => {
  it('closes the request, keeps the account, logs the reason and mails it to the person', async () => {
    const person = await asker('recusa-exclusao')
    const reason = 'Há um processo trabalhista em andamento: os dados precisam ser mantidos.'
    // The id in capitals is the same account (ids are compared case-insensitively).
    const refused = await refuse(person.id.toUpperCase(), { reason: `  ${reason}  ` })
    assert.equal(refused.statusCode, 204, refused.body)

    assert.ok(!(await openRequests()).some((request) => request.account.id === person.id))
    assert.equal((await suite.api.get('/api/auth/me', person.token)).statusCode, 200, 'still there')
    const row = await suite.api.database.db
      .selectFrom('deletion_requests')
      .selectAll()
      .where('account_id', '=', person.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.outcome, 'refused')
    assert.equal(row.reason, reason)
    assert.ok(row.decided_at)

    const [event] = await suite.api.events(person.id, 'deletion_refused')
    assert.ok(event, 'audited')
    assert.equal(event.actor_email, ADMIN.email)
    assert.deepEqual(JSON.parse(event.details), { reason })
    const audit = await suite.api.get(
      `/api/audit?type=deletion_refused&account=${person.id}`,
      suite.adminToken,
    )
    assert.equal(audit.json<{ events: unknown[] }>().events.length, 1)

    await suite.api.deliverMail()
    const mail = await suite.api.mail.withSubject(person.email, SUBJECT)
    assert.match(mail.text, new RegExp(`Motivo informado: «${reason.replace(/[.]/g, '\\.')}»`))
    assert.match(mail.text, /A sua conta e os seus dados continuam como estavam/)
    assert.match(mail.html ?? '', /Motivo informado: «Há um processo trabalhista/)

    // Decided: a second refusal finds nothing open, and the person may ask again.
    assert.deepEqual(errorOf(await refuse(person.id, { reason })), {
      code: 'not_found',
      message: 'Não há pedido de exclusão aberto para esta conta: ele pode já ter sido decidido.',
    })
    const again = await suite.api.call('POST', '/api/me/deletion-request', person.token, {
      password: person.password,
    })
    assert.equal(again.statusCode, 202)
    assert.ok((await openRequests()).some((request) => request.account.id === person.id))
  })

  it('needs a reason, an open request, someone else’s account and an admin', async () => {
    const person = await asker('recusa-sem-motivo')
    for (const body of [{ reason: '   ' }, { reason: '' }, {}, { reason: 'x'.repeat(501) }]) {
      const answer = await refuse(person.id, body)
      assert.equal(answer.statusCode, 400, JSON.stringify(body))
    }
    assert.equal(
      errorOf(await refuse(person.id, { reason: ' ' })).message,
      'Informe o motivo da recusa.',
    )
    assert.ok(
      (await openRequests()).some((request) => request.account.id === person.id),
      'open',
    )

    const never = await suite.api.account('nunca-pediu')
    assert.equal((await refuse(never.id, { reason: 'Motivo' })).statusCode, 404)
    assert.equal((await refuse(crypto.randomUUID(), { reason: 'Motivo' })).statusCode, 404)

    const me = (await suite.api.get('/api/auth/me', suite.adminToken)).json<{
      user: { id: string }
    }>().user
    assert.equal(errorOf(await refuse(me.id, { reason: 'Motivo' })).code, 'own_account')

    assert.equal((await refuse(person.id, { reason: 'Motivo' }, person.token)).statusCode, 403)
    assert.equal((await suite.api.events(person.id, 'deletion_refused')).length, 0)
    assert.equal(suite.api.mail.sentWith(person.email, SUBJECT).length, 0)
  })

  it('an anonymised account’s request is decided: refusing it is a 404', async () => {
    const person = await asker('anonimizada-antes')
    const gone = await suite.api.call('POST', `/api/staff/${person.id}/anonymise`, suite.adminToken)
    assert.equal(gone.statusCode, 204)
    assert.equal((await refuse(person.id, { reason: 'Tarde demais' })).statusCode, 404)
  })
})
