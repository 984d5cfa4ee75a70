import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STAFF_BULK_MAX, type StaffBulkAnswer } from '../../../common/api/staff'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'

/** POST /api/staff/bulk: one action for several people, a result for each (bulk-change.ts). */

let api: ApiFixture
let adminToken: string
let adminId: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  adminId = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>().user.id
})
after(() => api.close())

const bulk = (body: object, token = adminToken) => api.call('POST', '/api/staff/bulk', token, body)

/** The answer's outcome (and error code) per id. */
async function outcomes(body: object, token = adminToken) {
  const response = await bulk(body, token)
  assert.equal(response.statusCode, 200, response.body)
  return Object.fromEntries(
    response
      .json<StaffBulkAnswer>()
      .results.map((result) => [
        result.id,
        result.error ? `${result.outcome}:${result.error.code}` : result.outcome,
      ]),
  )
}

const pending = (label: string) => api.account(label, { status: 'pending' }).then((a) => a.id)
const statusOf = async (id: string) =>
  (
    await api.database.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst()
  )?.status

describe(`POST /api/staff/bulk (${testStoreName()})`, () => {
  it('approves the pending ones and says, for each of the others, why not', async () => {
    const [a, b] = [await pending('lote-a'), await pending('lote-b')]
    const active = (await api.account('lote-ativa')).id
    const disabled = (await api.account('lote-desativada', { status: 'disabled' })).id
    const unknown = crypto.randomUUID()
    const answer = await outcomes({
      action: 'approve',
      ids: [a, b, active, disabled, adminId, unknown],
    })
    assert.deepEqual(answer, {
      [a]: 'done',
      [b]: 'done',
      [active]: 'already_done',
      [disabled]: 'failed:not_pending',
      [adminId]: 'failed:own_account',
      [unknown]: 'failed:not_found',
    })
    assert.equal(await statusOf(a), 'active')
    assert.equal(await statusOf(disabled), 'disabled', 'a disabled account is not re-enabled')
    // Audited and mailed per person, by the single approval's own use case.
    for (const id of [a, b]) {
      const events = await api.events(id, 'approved')
      assert.equal(events.length, 1)
      assert.equal(events[0]!.actor_id, adminId)
    }
    assert.equal((await api.events(active, 'approved')).length, 0)
    const { email } = await api.database.db
      .selectFrom('accounts')
      .select('email')
      .where('id', '=', a)
      .executeTakeFirstOrThrow()
    assert.match((await api.mail.next(email)).subject, /aprovado/)
  })

  it('someone another admin approved meanwhile is already done, not an error, and not approved twice', async () => {
    const id = await pending('lote-outro')
    const other = await api.person('lote-admin', { role: 'admin' })
    assert.equal(
      (await api.call('PATCH', `/api/staff/${id}`, other.token, { status: 'active' })).statusCode,
      200,
    )
    assert.deepEqual(await outcomes({ action: 'approve', ids: [id] }), { [id]: 'already_done' })
    assert.equal((await api.events(id, 'approved')).length, 1)
  })

  it('refuses with one reason for all; a refusal repeated is already done; approving a refused one says so', async () => {
    const made = [await api.account('recusa-a', { status: 'pending' })]
    made.push(await api.account('recusa-b', { status: 'pending' }))
    const ids = made.map((account) => account.id)
    const active = (await api.account('recusa-ativa')).id
    assert.deepEqual(
      await outcomes({ action: 'refuse', ids: [...ids, active], reason: '  Não conhecemos.  ' }),
      { [ids[0]!]: 'done', [ids[1]!]: 'done', [active]: 'failed:not_pending' },
    )
    for (const account of made) {
      assert.equal(await statusOf(account.id), undefined, 'removed')
      assert.match((await api.mail.next(account.email)).text, /Motivo informado: Não conhecemos\./)
      const [event] = await api.events(account.id, 'refused')
      assert.deepEqual(JSON.parse(event!.details), { reason: 'Não conhecemos.' })
    }
    assert.deepEqual(await outcomes({ action: 'refuse', ids }), {
      [ids[0]!]: 'already_done',
      [ids[1]!]: 'already_done',
    })
    assert.equal((await api.events(ids[0]!, 'refused')).length, 1)
    assert.deepEqual(await outcomes({ action: 'approve', ids: [ids[0]!] }), {
      [ids[0]!]: 'failed:refused',
    })
  })

  it('disables active and invited people (their sessions end), and leaves the last admin', async () => {
    const someone = await api.person('desativa')
    const invited = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: 'Convidada em Lote',
      email: 'convidada-lote@example.com',
      role: 'staff',
    })
    const invitedId = invited.json<{ user: { id: string } }>().user.id
    const already = (await api.account('ja-desativada', { status: 'disabled' })).id
    assert.deepEqual(
      await outcomes({ action: 'disable', ids: [someone.id, invitedId, already, adminId] }),
      {
        [someone.id]: 'done',
        [invitedId]: 'done',
        [already]: 'already_done',
        [adminId]: 'failed:own_account',
      },
    )
    assert.equal((await api.get('/api/auth/me', someone.token)).statusCode, 401)
    assert.equal((await api.events(someone.id, 'disabled')).length, 1)
    assert.equal((await api.events(already, 'disabled')).length, 0)
  })

  it('acts once on an id given twice, in any case, and answers it once', async () => {
    const id = await pending('duplo')
    const response = await bulk({ action: 'approve', ids: [id, id.toUpperCase(), id] })
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json<StaffBulkAnswer>().results, [{ id, outcome: 'done' }])
    assert.equal((await api.events(id, 'approved')).length, 1)
  })

  it('refuses bad lists and bodies with 400, and changes nothing', async () => {
    const id = await pending('invalido')
    const tooMany = Array.from({ length: STAFF_BULK_MAX + 1 }, () => crypto.randomUUID())
    const bodies: [object | string, string][] = [
      [{ action: 'approve', ids: tooMany }, 'invalid_input'],
      [{ action: 'approve', ids: [] }, 'invalid_input'],
      [{ action: 'approve', ids: [id, 'não-é-um-id'] }, 'invalid_input'],
      [{ action: 'approve', ids: [`urn:uuid:${id}`] }, 'invalid_input'],
      [{ action: 'promote', ids: [id] }, 'invalid_input'],
      [{ ids: [id] }, 'invalid_input'],
      [{ action: 'approve', ids: id }, 'invalid_input'],
      [{ action: 'approve', ids: [id], extra: 1 }, 'invalid_input'],
      [{ action: 'refuse', ids: [id], reason: 'x'.repeat(501) }, 'invalid_input'],
      [{ action: 'approve', ids: [id], reason: 'Bem-vinda' }, 'reason_only_to_refuse'],
      ['{"action":', 'invalid_input'],
    ]
    for (const [body, expected] of bodies) {
      const response = await bulk(body as object)
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`)
      assert.equal(errorOf(response).code, expected, JSON.stringify(body))
      assert.match(errorOf(response).message, /\p{L}/u)
    }
    assert.equal(await statusOf(id), 'pending')
    assert.equal((await api.events(id, 'approved')).length, 0)
  })

  it('is for admins only: 401 without a session, 403 for staff, and nothing changes', async () => {
    const id = await pending('so-admin')
    const staff = await api.person('comum-lote')
    assert.equal((await bulk({ action: 'approve', ids: [id] }, '')).statusCode, 401)
    const refused = await bulk({ action: 'approve', ids: [id] }, staff.token)
    assert.equal(refused.statusCode, 403)
    assert.equal(errorOf(refused).code, 'forbidden')
    assert.equal(await statusOf(id), 'pending')
  })

  it('two admins approving overlapping lists at once: each person approved once, one event each', async () => {
    const ids: string[] = []
    for (let n = 0; n < 6; n += 1) ids.push(await pending(`corrida-${n}`))
    const other = await api.person('corrida-admin', { role: 'admin' })
    const [mine, theirs] = await Promise.all([
      outcomes({ action: 'approve', ids: ids.slice(0, 4) }),
      outcomes({ action: 'approve', ids: [...ids.slice(2)].reverse() }, other.token),
    ])
    for (const id of ids) {
      const said = [mine[id], theirs[id]].filter((outcome) => outcome !== undefined).sort()
      const expected =
        ids.indexOf(id) >= 2 && ids.indexOf(id) < 4 ? ['already_done', 'done'] : ['done']
      assert.deepEqual(said, expected, id)
      assert.equal((await api.events(id, 'approved')).length, 1, id)
      assert.equal(await statusOf(id), 'active')
    }
  })
})
