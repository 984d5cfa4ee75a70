import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

const setStatus = (id: string, status: string, token = adminToken) =>
  api.post(`/api/staff/${id}/status`, { status }, { authorization: `Bearer ${token}` })

describe(`/api/staff (${testStoreName()})`, () => {
  it('lists every account for an admin, pending ones first, without password hashes', async () => {
    await api.addAccount({
      email: 'zeca@example.com',
      password: 'senha-zeca-1',
      name: 'Zeca',
      status: 'pending',
    })
    await api.addAccount({ email: 'alice@example.com', password: 'senha-alice-1', name: 'Alice' })
    const response = await api.get('/api/staff', adminToken)
    assert.equal(response.statusCode, 200)
    const { accounts } = response.json<{ accounts: { email: string; status: string }[] }>()
    assert.equal(accounts[0]?.email, 'zeca@example.com')
    assert.deepEqual(
      accounts.map((account) => account.email).sort(),
      ['alice@example.com', ADMIN.email, 'zeca@example.com'].sort(),
    )
    assert.doesNotMatch(response.body, /scrypt|password/)
  })

  it('lets an admin approve a pending registration, after which it signs in', async () => {
    const id = await api.addAccount({
      email: 'nova@example.com',
      password: 'senha-nova-1',
      status: 'pending',
    })
    const response = await setStatus(id, 'active')
    assert.equal(response.statusCode, 200)
    assert.equal(response.json<{ user: { status: string } }>().user.status, 'active')
    assert.equal(
      (await api.post('/api/auth/login', { email: 'nova@example.com', password: 'senha-nova-1' }))
        .statusCode,
      200,
    )
  })

  it('lets an admin disable an account, which ends its sessions', async () => {
    const id = await api.addAccount({ email: 'sai@example.com', password: 'senha-sai-12' })
    const token = await api.signIn('sai@example.com', 'senha-sai-12')
    assert.equal((await setStatus(id, 'disabled')).statusCode, 200)
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
    const login = await api.post('/api/auth/login', {
      email: 'sai@example.com',
      password: 'senha-sai-12',
    })
    assert.equal(login.json<{ error: { code: string } }>().error.code, 'account_disabled')
  })

  it('refuses staff who are not admins (403) and anyone signed out (401)', async () => {
    await api.addAccount({ email: 'comum@example.com', password: 'senha-comum-1' })
    const token = await api.signIn('comum@example.com', 'senha-comum-1')
    const list = await api.get('/api/staff', token)
    assert.equal(list.statusCode, 403)
    assert.deepEqual(list.json(), {
      error: { code: 'forbidden', message: 'Acesso restrito a administradores.' },
    })
    const someone = await api.addAccount({
      email: 'outro@example.com',
      password: 'senha-outro-1',
      status: 'pending',
    })
    assert.equal((await setStatus(someone, 'active', token)).statusCode, 403)
    assert.equal((await api.get('/api/staff')).statusCode, 401)
  })

  it('does not let an admin disable their own account', async () => {
    const me = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>()
    const response = await setStatus(me.user.id, 'disabled')
    assert.equal(response.statusCode, 400)
    assert.equal(response.json<{ error: { code: string } }>().error.code, 'own_account')
  })

  it('answers 404 for an unknown account and 400 for bad input', async () => {
    assert.equal((await setStatus(crypto.randomUUID(), 'active')).statusCode, 404)
    assert.equal((await setStatus('not-a-uuid', 'active')).statusCode, 400)
    const someone = await api.addAccount({
      email: 'x@example.com',
      password: 'senha-x-1234',
      status: 'pending',
    })
    for (const status of ['pending', 'admin', '', 'ACTIVE']) {
      const response = await setStatus(someone, status)
      assert.equal(response.statusCode, 400, status)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'invalid_input')
    }
  })
})

describe(`the own-account and last-admin rules, whatever the id's spelling (${testStoreName()})`, () => {
  const spellings = (id: string) => [
    id,
    id.toUpperCase(),
    id.replace(/[a-f]/g, (c) => c.toUpperCase()),
  ]

  it('refuses an admin disabling himself with his id in any case (400 own_account)', async () => {
    const me = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>()
    for (const id of spellings(me.user.id)) {
      const response = await setStatus(id, 'disabled')
      assert.equal(response.statusCode, 400, id)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'own_account')
    }
    assert.equal((await api.get('/api/auth/me', adminToken)).statusCode, 200)
  })

  it('answers 400 to an id that is not a plain UUID (urn:uuid:, braces), never 500', async () => {
    const someone = await api.addAccount({ email: 'urn@example.com', password: 'senha-urn-123' })
    for (const id of [
      `urn:uuid:${someone}`,
      `{${someone}}`,
      someone.replace(/-/g, ''),
      `${someone}%00`,
    ]) {
      const response = await setStatus(id, 'disabled')
      assert.equal(response.statusCode, 400, id)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'invalid_input')
    }
  })

  it('works on another account with its id in upper case', async () => {
    const someone = await api.addAccount({
      email: 'maiusculo@example.com',
      password: 'senha-mai-123',
    })
    const response = await setStatus(someone.toUpperCase(), 'disabled')
    assert.equal(response.statusCode, 200)
    assert.equal(response.json<{ user: { id: string; status: string } }>().user.id, someone)
  })

  it('two admins disabling each other at once: one wins, an active admin is left (409 last_admin)', async () => {
    const otherId = await api.addAccount({
      email: 'segundo-admin@example.com',
      password: 'senha-admin-2',
      role: 'admin',
    })
    const me = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>()
    const otherToken = await api.signIn('segundo-admin@example.com', 'senha-admin-2')
    const [mine, theirs] = await Promise.all([
      setStatus(otherId, 'disabled'),
      setStatus(me.user.id.toUpperCase(), 'disabled', otherToken),
    ])
    const statuses = [mine.statusCode, theirs.statusCode].sort()
    assert.ok(statuses[0] === 200 && statuses[1] !== 200, `${mine.body} ${theirs.body}`)
    const loser = mine.statusCode === 200 ? theirs : mine
    assert.ok(
      ['last_admin', 'unauthenticated'].includes(
        loser.json<{ error: { code: string } }>().error.code,
      ),
      loser.body,
    )
    const active = await api.database.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .execute()
    assert.equal(active.length, 1)
    // Put things back for the other tests.
    await api.database.db
      .updateTable('accounts')
      .set({ status: 'active' })
      .where('role', '=', 'admin')
      .execute()
  })
})

describe(`readiness (${testStoreName()})`, () => {
  it('/readyz is 200 while the database answers, and /healthz stays cheap', async () => {
    const ready = await api.get('/readyz')
    assert.equal(ready.statusCode, 200)
    assert.deepEqual(ready.json(), { status: 'ready' })
    assert.deepEqual((await api.get('/healthz')).json(), { status: 'ok' })
  })
})
