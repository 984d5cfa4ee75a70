import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { ADMIN, apiFixture, bearer, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { testProviderSettings } from '../../test/oidc-test-provider'
import { testStoreName } from '../../test/test-database'
import { lockAccountForChange } from '../../accounts/account-administration'
import type { Db } from '../../db/database'
import { nameColumns } from '../../db/name-columns'
import { roleColumns } from '../../db/role-columns'
import { MEMBERS_PER_PIECE } from './json-in-pieces'
import { parseFilter } from './filter-parser'
import { listGroups, readGroup } from './scim-groups'
import {
  ERROR_URN,
  GROUP_SCHEMA_URN,
  newUser,
  patch,
  scimClient,
  type ScimClient,
} from './scim-test-client'

/**
 * /scim/v2 and /api/scim-tokens through the app (inject), on this engine: who may call, every
 * route's answer and refusal in SCIM's shape, the semantics the directories rely on (userName eq
 * finds an existing person, active:false ends sessions, DELETE deprovisions), the guard against
 * an e-mail takeover, and concurrent changes of one resource.
 */

let api: ApiFixture
let adminToken: string
let scim: ScimClient

before(async () => {
  api = await apiFixture({
    authRateLimit: 1_000_000,
    authProviders: [
      testProviderSettings({
        adminClaim: 'groups',
        adminValues: ['Painel Admins'],
        roleClaim: 'groups',
        roleMap: [{ value: 'grp-auditores', name: 'Auditoria SCIM' }],
      }),
    ],
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  scim = await scimClient(api, adminToken)
})
after(() => api.close())

type ScimMethodWithBody = 'PUT' | 'PATCH'

const errorOf = (response: { json: () => unknown }) =>
  response.json() as { schemas: string[]; status: string; scimType?: string; detail: string }

function assertScimError(
  response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  status: number,
  scimType?: string,
) {
  assert.equal(response.statusCode, status, JSON.stringify(response.json()))
  assert.match(String(response.headers['content-type']), /^application\/scim\+json/)
  const body = errorOf(response)
  assert.deepEqual(body.schemas, [ERROR_URN])
  assert.equal(body.status, String(status))
  assert.equal(body.scimType, scimType)
  assert.ok(body.detail.length > 0)
}

let counter = 0
const unique = (label: string) => `${label}.${(counter += 1)}@corp.example`

async function provision(label: string, extra: Record<string, unknown> = {}) {
  const response = await scim.call('POST', '/Users', newUser(unique(label), extra))
  assert.equal(response.statusCode, 201, response.body)
  return response.json<{ id: string; userName: string; meta: { version: string } }>()
}

const accountRow = (id: string) =>
  api.database.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe(`provisioning tokens (/api/scim-tokens) on ${testStoreName()}`, () => {
  it('are made (the token once), listed without it, used, revoked at once, all audited', async () => {
    const made = await api.call('POST', '/api/scim-tokens', adminToken, { name: '  Okta  ' })
    assert.equal(made.statusCode, 201)
    const { id, name, token } = made.json<{ id: string; name: string; token: string }>()
    assert.equal(name, 'Okta')
    assert.match(token, /^[A-Za-z0-9_-]{43}$/)

    const listed = await api.get('/api/scim-tokens', adminToken)
    assert.equal(listed.statusCode, 200)
    assert.ok(!listed.body.includes(token), 'the list never holds the token')
    // The address to give the directory is the panel's public one, whatever the caller's Host.
    assert.equal(listed.json<{ baseUrl: string }>().baseUrl, `${PUBLIC_URL}/scim/v2`)
    const item = listed
      .json<{ tokens: { id: string; lastUsedAt: string | null; createdBy: string }[] }>()
      .tokens.find((row) => row.id === id)!
    assert.equal(item.lastUsedAt, null)
    assert.equal(item.createdBy, (await accountRow(await adminId())).name)
    const stored = await api.database.db
      .selectFrom('scim_tokens')
      .select('token_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.notEqual(stored.token_hash, token, 'stored hashed')

    const used = await api.app.inject({
      method: 'GET',
      url: '/scim/v2/Users',
      headers: bearer(token),
    })
    assert.equal(used.statusCode, 200)
    const after = (await api.get('/api/scim-tokens', adminToken))
      .json<{ tokens: { id: string; lastUsedAt: string | null }[] }>()
      .tokens.find((row) => row.id === id)!
    assert.ok(after.lastUsedAt !== null, 'last use recorded')

    assert.equal((await api.call('DELETE', `/api/scim-tokens/${id}`, adminToken)).statusCode, 204)
    const revoked = await api.app.inject({
      method: 'GET',
      url: '/scim/v2/Users',
      headers: bearer(token),
    })
    assertScimError(revoked, 401)
    assert.equal((await api.call('DELETE', `/api/scim-tokens/${id}`, adminToken)).statusCode, 404)

    const admin = await adminId()
    const created = await api.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('type', 'in', ['scim_token_created', 'scim_token_revoked'])
      .where('details', 'like', '%Okta%')
      .execute()
    assert.deepEqual(created.map((event) => [event.type, event.actor_id]).sort(), [
      ['scim_token_created', admin],
      ['scim_token_revoked', admin],
    ])
  })

  it('need provisioning.manage: a person without it gets 403, a caller without a session 401', async () => {
    const staff = await api.person('sem-permissao')
    for (const [method, url] of [
      ['GET', '/api/scim-tokens'],
      ['POST', '/api/scim-tokens'],
      ['DELETE', `/api/scim-tokens/${scim.tokenId}`],
    ] as const) {
      const body = method === 'POST' ? { name: 'x' } : undefined
      assert.equal((await api.call(method, url, staff.token, body)).statusCode, 403, url)
      assert.equal((await api.call(method, url, undefined, body)).statusCode, 401, url)
    }
  })
})

async function adminId(): Promise<string> {
  const row = await api.database.db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', ADMIN.email)
    .executeTakeFirstOrThrow()
  return row.id
}

describe(`who opens /scim/v2 on ${testStoreName()}`, () => {
  it('a provisioning token only: none, a wrong one or a session token is a SCIM 401', async () => {
    for (const headers of [
      {},
      bearer('x'.repeat(43)),
      bearer(adminToken),
      { authorization: 'Basic YTpi' },
    ]) {
      const response = await api.app.inject({ method: 'GET', url: '/scim/v2/Users', headers })
      assertScimError(response, 401)
      assert.match(String(response.headers['www-authenticate']), /^Bearer/)
    }
  })

  it('no answer is kept by a cache: a 200, a 401 and a 404 all say no-store', async () => {
    const answers = [
      await scim.call('GET', '/Users'),
      await scim.call('GET', '/ServiceProviderConfig'),
      await api.app.inject({ method: 'GET', url: '/scim/v2/Users' }),
      await scim.call('GET', '/Users/2819c223-7f76-453a-919d-413861904646'),
    ]
    assert.deepEqual(
      answers.map((answer) => [answer.statusCode, answer.headers['cache-control']]),
      [
        [200, 'no-store'],
        [200, 'no-store'],
        [401, 'no-store'],
        [404, 'no-store'],
      ],
    )
  })

  it('a provisioning token opens nothing else: the API answers it 401', async () => {
    for (const url of ['/api/auth/me', '/api/staff', '/api/scim-tokens', '/api/me/sessions']) {
      const response = await api.app.inject({ method: 'GET', url, headers: bearer(scim.token) })
      assert.equal(response.statusCode, 401, url)
    }
  })
})

describe(`discovery on ${testStoreName()}`, () => {
  it('ServiceProviderConfig says bulk is unsupported, patch and etag are; ResourceTypes and Schemas list User and Group', async () => {
    const config = await scim.call('GET', '/ServiceProviderConfig')
    assert.equal(config.statusCode, 200)
    assert.match(String(config.headers['content-type']), /^application\/scim\+json/)
    const body = config.json<Record<string, { supported: boolean }>>()
    assert.equal(body.bulk!.supported, false)
    assert.equal(body.patch!.supported, true)
    assert.equal(body.etag!.supported, true)
    const types = (await scim.call('GET', '/ResourceTypes')).json<{ Resources: { id: string }[] }>()
    assert.deepEqual(
      types.Resources.map((type) => type.id),
      ['User', 'Group'],
    )
    assert.equal((await scim.call('GET', '/ResourceTypes/User')).statusCode, 200)
    assertScimError(await scim.call('GET', '/ResourceTypes/Device'), 404)
    const schemas = (await scim.call('GET', '/Schemas')).json<{ totalResults: number }>()
    assert.equal(schemas.totalResults, 2)
    assert.equal((await scim.call('GET', `/Schemas/${GROUP_SCHEMA_URN}`)).statusCode, 200)
    assertScimError(await scim.call('GET', '/Schemas/urn:nothing'), 404)
    assertScimError(await scim.call('GET', '/Bulk'), 404)
  })
})

describe(`Users on ${testStoreName()}`, () => {
  it('POST makes an active person with no password, audited with the token as who acted', async () => {
    const email = unique('Nova.Pessoa')
    const response = await scim.call(
      'POST',
      '/Users',
      newUser(email.toUpperCase(), { externalId: 'e-1' }),
    )
    assert.equal(response.statusCode, 201)
    const user = response.json<{
      id: string
      userName: string
      active: boolean
      externalId: string
      meta: { location: string }
    }>()
    assert.equal(user.userName, email.toLowerCase(), 'the canonical e-mail')
    assert.equal(user.active, true)
    assert.equal(user.externalId, 'e-1')
    assert.equal(response.headers.location, user.meta.location)
    const row = await accountRow(user.id)
    assert.equal(row.password_hash, '')
    assert.equal(row.scim_provisioned, true)
    assert.equal(row.role_id.toLowerCase(), BUILT_IN_ROLE_IDS.staff)
    const [event] = await api.events(user.id, 'provisioned')
    assert.equal(event?.actor_name, 'Entra ID')
    assert.equal(event?.actor_id, scim.tokenId)
  })

  it('an existing person (registered, invited) is found by userName eq, case aside, and a POST of it is 409 uniqueness', async () => {
    const existing = await api.account('existente')
    const filter = encodeURIComponent(`userName eq "${existing.email.toUpperCase()}"`)
    const found = await scim.call('GET', `/Users?filter=${filter}`)
    assert.equal(found.statusCode, 200)
    const list = found.json<{ totalResults: number; Resources: { id: string }[] }>()
    assert.equal(list.totalResults, 1)
    assert.equal(list.Resources[0]!.id, existing.id)
    assertScimError(await scim.call('POST', '/Users', newUser(existing.email)), 409, 'uniqueness')
  })

  it('GET by id; an unknown or malformed id is 404', async () => {
    const user = await provision('leitura')
    const read = await scim.call('GET', `/Users/${user.id.toUpperCase()}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers.etag, user.meta.version)
    assertScimError(await scim.call('GET', '/Users/2819c223-7f76-453a-919d-413861904646'), 404)
    assertScimError(await scim.call('GET', '/Users/nao-e-id'), 404)
  })

  it('the list pages with startIndex and count, filters, and projects attributes', async () => {
    for (const n of [1, 2, 3]) await provision(`pagina-${n}`, { externalId: `pagina-${n}` })
    const filter = encodeURIComponent('externalId sw "pagina-" and not (externalId eq "pagina-2")')
    const page = await scim.call(
      'GET',
      `/Users?filter=${filter}&startIndex=2&count=1&attributes=userName`,
    )
    const body = page.json<{
      totalResults: number
      startIndex: number
      itemsPerPage: number
      Resources: Record<string, unknown>[]
    }>()
    assert.equal(body.totalResults, 2)
    assert.equal(body.startIndex, 2)
    assert.equal(body.itemsPerPage, 1)
    assert.deepEqual(Object.keys(body.Resources[0]!).sort(), ['id', 'schemas', 'userName'])
    assert.match(String(body.Resources[0]!.userName), /^pagina-3\./)
    const without = await scim.call('GET', `/Users?filter=${filter}&excludedAttributes=emails,meta`)
    for (const resource of without.json<{ Resources: Record<string, unknown>[] }>().Resources) {
      assert.equal(resource.emails, undefined)
      assert.equal(resource.meta, undefined)
    }
    const counted = await scim.call('GET', `/Users?filter=${filter}&count=0`)
    assert.deepEqual(counted.json<{ Resources: unknown[] }>().Resources, [])
    const since = encodeURIComponent('meta.lastModified gt "2000-01-01T00:00:00Z" and userName pr')
    assert.equal((await scim.call('GET', `/Users?filter=${since}`)).statusCode, 200)
  })

  // The pages after the first start at their first User, found along the Users' own index
  // (scim-users.ts, listUsers): a directory reading them all gets each once, in one order.
  it('read page after page by startIndex, gives every User once, and nothing past the end', async () => {
    for (const n of [1, 2, 3, 4, 5]) await provision(`folha-${n}`, { externalId: `folha-${n}` })
    const filter = encodeURIComponent('externalId sw "folha-"')
    type Page = { totalResults: number; itemsPerPage: number; Resources: { id: string }[] }
    const read = async (query: string) =>
      (await scim.call('GET', `/Users?filter=${filter}&${query}`)).json<Page>()
    const whole = (await read('count=100')).Resources.map((user) => user.id)
    assert.equal(whole.length, 5)
    const paged: string[] = []
    for (let startIndex = 1; startIndex <= 5; startIndex += 2) {
      const page = await read(`startIndex=${startIndex}&count=2`)
      assert.equal(page.totalResults, 5)
      paged.push(...page.Resources.map((user) => user.id))
    }
    assert.deepEqual(paged, whole)
    const past = await read('startIndex=6&count=2')
    assert.deepEqual([past.totalResults, past.itemsPerPage, past.Resources], [5, 0, []])
  })

  it('PATCH active "False" (Entra\'s string) disables the person and ends their sessions at once', async () => {
    const person = await api.person('desligada')
    const response = await scim.call(
      'PATCH',
      `/Users/${person.id}`,
      patch({ op: 'Replace', value: { active: 'False' } }),
    )
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(response.json<{ active: boolean }>().active, false)
    assert.equal((await accountRow(person.id)).status, 'disabled')
    const me = await api.get('/api/auth/me', person.token)
    assert.equal(me.statusCode, 401)
    const [event] = await api.events(person.id, 'disabled')
    assert.equal(event?.actor_name, 'Entra ID')
    // And back: active true re-enables (a new sign-in is needed).
    const back = await scim.call(
      'PATCH',
      `/Users/${person.id}`,
      patch({ op: 'replace', path: 'active', value: true }),
    )
    assert.equal(back.json<{ active: boolean }>().active, true)
    assert.equal((await api.events(person.id, 'reenabled')).length, 1)
  })

  it('PUT replaces the person as Okta sends it; If-Match that does not match is 412, and nothing changes', async () => {
    const user = await provision('okta-put')
    const stale = user.meta.version
    const put = await scim.call(
      'PUT',
      `/Users/${user.id}`,
      newUser(user.userName, {
        id: user.id,
        name: { givenName: 'Beatriz', familyName: 'Okta' },
        password: 'ignored-1',
      }),
      { 'if-match': stale },
    )
    assert.equal(put.statusCode, 200, put.body)
    assert.equal(put.json<{ displayName: string }>().displayName, 'Beatriz Okta')
    const refused = await scim.call(
      'PATCH',
      `/Users/${user.id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Outro Nome' }),
      { 'if-match': stale },
    )
    assertScimError(refused, 412)
    assert.equal((await accountRow(user.id)).name, 'Beatriz Okta')
    const star = await scim.call(
      'PATCH',
      `/Users/${user.id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Outro Nome' }),
      { 'if-match': '*' },
    )
    assert.equal(star.statusCode, 200)
  })

  it('DELETE deprovisions: disabled, sessions ended, gone from SCIM, the account kept', async () => {
    const person = await api.person('removida')
    assert.equal((await scim.call('DELETE', `/Users/${person.id}`)).statusCode, 204)
    assertScimError(await scim.call('GET', `/Users/${person.id}`), 404)
    assertScimError(await scim.call('DELETE', `/Users/${person.id}`), 404)
    const filter = encodeURIComponent(`userName eq "${person.email}"`)
    assert.equal(
      (await scim.call('GET', `/Users?filter=${filter}`)).json<{ totalResults: number }>()
        .totalResults,
      0,
    )
    const row = await accountRow(person.id)
    assert.equal(row.status, 'disabled')
    assert.equal(row.email, person.email, 'not anonymised')
    assert.equal((await api.get('/api/auth/me', person.token)).statusCode, 401)
    assert.equal((await api.events(person.id, 'deprovisioned')).length, 1)
    // The directory may create them again: the same account comes back.
    const again = await scim.call('POST', '/Users', newUser(person.email))
    assert.equal(again.statusCode, 201)
    assert.equal(again.json<{ id: string }>().id, person.id)
  })

  it('the last active Administrador is not disabled through SCIM (409), and stays active', async () => {
    const id = await adminId()
    const response = await scim.call(
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'replace', path: 'active', value: false }),
    )
    assertScimError(response, 409)
    assert.equal((await accountRow(id)).status, 'active')
    assertScimError(await scim.call('DELETE', `/Users/${id}`), 409)
    assert.equal((await accountRow(id)).scim_removed_at, null)
  })

  it("cannot change the e-mail of an account it did not create: no takeover of an admin's account", async () => {
    const admin = await api.account('admin-alvo', { role: 'admin' })
    for (const body of [
      patch({ op: 'replace', path: 'userName', value: 'atacante@evil.example' }),
      patch({ op: 'Replace', value: { userName: 'atacante@evil.example' } }),
    ]) {
      assertScimError(await scim.call('PATCH', `/Users/${admin.id}`, body), 400, 'mutability')
    }
    const current = (await scim.call('GET', `/Users/${admin.id}`)).json<Record<string, unknown>>()
    const put = await scim.call('PUT', `/Users/${admin.id}`, {
      ...current,
      userName: 'atacante@evil.example',
    })
    assertScimError(put, 400, 'mutability')
    assert.equal((await accountRow(admin.id)).email, admin.email)
    // A person the directory created is the directory's to rename.
    const user = await provision('renomeavel')
    const renamed = unique('renomeada')
    const ok = await scim.call(
      'PATCH',
      `/Users/${user.id}`,
      patch({ op: 'replace', path: 'userName', value: renamed }),
    )
    assert.equal(ok.statusCode, 200, ok.body)
    assert.equal((await accountRow(user.id)).email, renamed)
    // …but not onto an address someone has.
    const clash = await scim.call(
      'PATCH',
      `/Users/${user.id}`,
      patch({ op: 'replace', path: 'userName', value: admin.email }),
    )
    assertScimError(clash, 409, 'uniqueness')
  })

  it('bad input is a clear SCIM error, never a 500, and writes nothing', async () => {
    const user = await provision('entrada-ruim')
    const before = await accountRow(user.id)
    const cases: [string, string, unknown, number, string | undefined][] = [
      ['GET', '/Users?filter=userName%20eq', undefined, 400, 'invalidFilter'],
      [
        'GET',
        `/Users?filter=${encodeURIComponent('userName xx "a"')}`,
        undefined,
        400,
        'invalidFilter',
      ],
      [
        'GET',
        `/Users?filter=${encodeURIComponent('((((userName eq "a"')}`,
        undefined,
        400,
        'invalidFilter',
      ],
      ['GET', '/Users?count=ten', undefined, 400, 'invalidValue'],
      [
        'POST',
        '/Users',
        newUser(unique('longo'), { displayName: 'x'.repeat(10_000) }),
        400,
        'invalidValue',
      ],
      [
        'POST',
        '/Users',
        newUser(unique('desconhecido'), { favouriteColour: 'azul' }),
        400,
        'invalidSyntax',
      ],
      ['POST', '/Users', { userName: unique('sem-schemas') }, 400, 'invalidSyntax'],
      ['POST', '/Users', '{"schemas": [', 400, 'invalidSyntax'],
      ['POST', '/Users', newUser('não é e-mail'), 400, 'invalidValue'],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'replace', path: 'id', value: 'outro' }),
        400,
        'mutability',
      ],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'replace', path: 'meta.created', value: 'x' }),
        400,
        'mutability',
      ],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'replace', path: 'displayName', value: 'y'.repeat(10_000) }),
        400,
        'invalidValue',
      ],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'remove', path: 'emails[type eq "home"]' }),
        400,
        'noTarget',
      ],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'jump', path: 'displayName' }),
        400,
        'invalidSyntax',
      ],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'replace', path: 'nosuch', value: 1 }),
        400,
        'invalidPath',
      ],
      [
        'PATCH',
        `/Users/${user.id}`,
        patch(
          { op: 'replace', path: 'displayName', value: 'Primeira Parte' },
          { op: 'replace', path: 'active', value: 'talvez' },
        ),
        400,
        'invalidValue',
      ],
    ]
    for (const [method, path, body, status, scimType] of cases) {
      const response = await scim.call(method as 'GET', path, body)
      assertScimError(response, status, scimType)
    }
    const after = await accountRow(user.id)
    assert.equal(after.name, before.name, 'the first operation of a refused PATCH is not written')
    assert.equal(after.status, before.status)
    assert.equal(String(after.updated_at), String(before.updated_at))
  })

  it('a PUT or PATCH with a query parameter given twice is 400 and changes nothing', async () => {
    const user = await provision('parametro-duplo')
    const { id: groupId } = (
      await scim.call('POST', '/Groups', {
        schemas: [GROUP_SCHEMA_URN],
        displayName: 'Parâmetro Duplo',
      })
    ).json<{ id: string }>()
    const twice = '?attributes=displayName&attributes=id'
    const cases: [ScimMethodWithBody, string, unknown][] = [
      [
        'PUT',
        `/Users/${user.id}${twice}`,
        newUser(user.userName, { name: { givenName: 'Nome', familyName: 'Trocado' } }),
      ],
      [
        'PATCH',
        `/Users/${user.id}${twice}`,
        patch({ op: 'replace', path: 'displayName', value: 'Nome Trocado' }),
      ],
      [
        'PUT',
        `/Groups/${groupId}${twice}`,
        { schemas: [GROUP_SCHEMA_URN], displayName: 'Grupo Trocado' },
      ],
      [
        'PATCH',
        `/Groups/${groupId}${twice}`,
        patch({ op: 'replace', path: 'displayName', value: 'Grupo Trocado' }),
      ],
    ]
    const userBefore = await accountRow(user.id)
    const teamRow = () =>
      api.database.db
        .selectFrom('teams')
        .selectAll()
        .where('id', '=', groupId)
        .executeTakeFirstOrThrow()
    const teamBefore = await teamRow()
    for (const [method, path, body] of cases) {
      assertScimError(await scim.call(method, path, body), 400, 'invalidValue')
    }
    const userAfter = await accountRow(user.id)
    assert.equal(userAfter.name, userBefore.name)
    assert.equal(String(userAfter.updated_at), String(userBefore.updated_at))
    const teamAfter = await teamRow()
    assert.equal(teamAfter.name, teamBefore.name)
    assert.equal(String(teamAfter.updated_at), String(teamBefore.updated_at))
    assert.equal((await api.events(user.id, 'name_changed')).length, 0)
  })

  it('plain application/json is accepted as well', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...bearer(scim.token), 'content-type': 'application/json' },
      payload: newUser(unique('json-simples')),
    })
    assert.equal(response.statusCode, 201)
    assert.match(String(response.headers['content-type']), /^application\/scim\+json/)
  })

  it('two PATCHes of one person at once: both are applied, neither lost', async () => {
    const user = await provision('ao-mesmo-tempo')
    const [first, second] = await Promise.all([
      scim.call(
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'replace', path: 'externalId', value: 'ext-concorrente' }),
      ),
      scim.call(
        'PATCH',
        `/Users/${user.id}`,
        patch({ op: 'replace', path: 'displayName', value: 'Nome Concorrente' }),
      ),
    ])
    assert.equal(first.statusCode, 200, first.body)
    assert.equal(second.statusCode, 200, second.body)
    const row = await accountRow(user.id)
    assert.equal(row.scim_external_id, 'ext-concorrente')
    assert.equal(row.name, 'Nome Concorrente')
  })

  it('two PATCHes made from one version at once: one applies, the other is 412', async () => {
    const user = await provision('mesma-versao')
    const version = user.meta.version
    const answers = await Promise.all(
      ['Versão Um', 'Versão Dois'].map((name) =>
        scim.call(
          'PATCH',
          `/Users/${user.id}`,
          patch({ op: 'replace', path: 'displayName', value: name }),
          {
            'if-match': version,
          },
        ),
      ),
    )
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 412])
    const applied = answers.find((answer) => answer.statusCode === 200)!
    assert.equal(
      (await accountRow(user.id)).name,
      applied.json<{ displayName: string }>().displayName,
    )
  })
})

describe(`Groups on ${testStoreName()}`, () => {
  const group = (
    displayName: string,
    members: string[] = [],
    extra: Record<string, unknown> = {},
  ) => ({
    schemas: [GROUP_SCHEMA_URN],
    displayName,
    members: members.map((value) => ({ value })),
    ...extra,
  })
  const teamOf = async (id: string) => (await accountRow(id)).team_id?.toLowerCase() ?? null

  it('POST makes a team with its people; GET, filter by displayName (case aside), excludedAttributes=members', async () => {
    const a = await provision('time-a')
    const made = await scim.call('POST', '/Groups', group('Suporte SCIM', [a.id]))
    assert.equal(made.statusCode, 201, made.body)
    const { id } = made.json<{ id: string }>()
    assert.equal(await teamOf(a.id), id)
    const [event] = await api.events(a.id, 'team_changed')
    assert.equal(event?.actor_name, 'Entra ID')
    const filter = encodeURIComponent('displayName eq "SUPORTE scim"')
    const found = await scim.call('GET', `/Groups?filter=${filter}&excludedAttributes=members`)
    const list = found.json<{ totalResults: number; Resources: Record<string, unknown>[] }>()
    assert.equal(list.totalResults, 1)
    assert.equal(list.Resources[0]!.members, undefined)
    const read = (await scim.call('GET', `/Groups/${id}`)).json<{ members: { value: string }[] }>()
    assert.deepEqual(
      read.members.map((member) => member.value),
      [a.id],
    )
    assertScimError(await scim.call('POST', '/Groups', group('suporte scim')), 409, 'uniqueness')
    assertScimError(await scim.call('GET', '/Groups/2819c223-7f76-453a-919d-413861904646'), 404)
  })

  it('a page of Groups ends early once its members pass the bound, after one Group at least', async () => {
    const people = await Promise.all([1, 2, 3, 4, 5].map((n) => provision(`lote${n}`)))
    for (const [name, members] of [
      ['Lote A', [people[0]!.id, people[1]!.id]],
      ['Lote B', [people[2]!.id, people[3]!.id]],
      ['Lote C', [people[4]!.id]],
    ] as const) {
      assert.equal((await scim.call('POST', '/Groups', group(name, [...members]))).statusCode, 201)
    }
    const lotes = parseFilter('displayName sw "Lote"')
    const page = (startIndex: number, most: number) =>
      listGroups(
        api.database.db,
        lotes,
        { startIndex, count: 10, offset: startIndex - 1 },
        `${PUBLIC_URL}/scim/v2`,
        true,
        most,
      )
    const names = (list: Awaited<ReturnType<typeof page>>) =>
      list.resources.map((resource) => resource.displayName)
    // Two members a page: A alone (B would make four), then B, then C.
    const first = await page(1, 2)
    assert.deepEqual(names(first), ['Lote A'])
    assert.equal(first.total, 3)
    assert.deepEqual(names(await page(2, 2)), ['Lote B'])
    assert.deepEqual(names(await page(3, 2)), ['Lote C'])
    // A bound below one Group's members still gives that Group, whole.
    const alone = await page(1, 1)
    assert.deepEqual(names(alone), ['Lote A'])
    assert.equal((alone.resources[0]!.members as unknown[]).length, 2)
    // Without members asked for, the page is as long as asked.
    const bare = await listGroups(
      api.database.db,
      lotes,
      { startIndex: 1, count: 10, offset: 0 },
      `${PUBLIC_URL}/scim/v2`,
      false,
      1,
    )
    assert.deepEqual(names(bare), ['Lote A', 'Lote B', 'Lote C'])
  })

  it('Groups read a few members at a time are the Groups read at once', async () => {
    const people = await Promise.all(Array.from({ length: 9 }, (_, n) => provision(`turnos-${n}`)))
    const ids = people.map((person) => person.id)
    for (const [name, members] of [
      ['Turnos A', ids.slice(0, 5)],
      ['Turnos B', []],
      ['Turnos C', ids.slice(5, 6)],
      ['Turnos D', ids.slice(6, 9)],
    ] as const)
      assert.equal((await scim.call('POST', '/Groups', group(name, [...members]))).statusCode, 201)
    const turnos = parseFilter('displayName sw "Turnos"')
    const base = `${PUBLIC_URL}/scim/v2`
    const list = (perTurn: number) =>
      listGroups(
        api.database.db,
        turnos,
        { startIndex: 1, count: 10, offset: 0 },
        base,
        true,
        100,
        perTurn,
      )
    const atOnce = await list(10_000)
    assert.equal(atOnce.resources.length, 4)
    assert.deepEqual(
      atOnce.resources.map((resource) => (resource.members as unknown[] | undefined)?.length ?? 0),
      [5, 0, 1, 3],
    )
    // Turns of 1, 2 and 3: a team half-read, a turn ending on a team's last member, empty teams.
    for (const perTurn of [1, 2, 3]) assert.deepEqual(await list(perTurn), atOnce, `${perTurn}`)
    const { id } = atOnce.resources[0]!
    assert.deepEqual(
      await readGroup(api.database.db, String(id), base, true, 2),
      await readGroup(api.database.db, String(id), base, true, 10_000),
    )
  })

  it('a Group read a member at a time while a PATCH changes it is the Group before or after, never a mix', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, (_, n) => provision(`mistura-${n}`)))
    const ids = people.map((person) => person.id).sort()
    // The first leaves and the last joins: a read that took its first members before the PATCH
    // and its last ones after would have both.
    const made = await scim.call('POST', '/Groups', group('Mistura SCIM', ids.slice(0, 7)))
    const { id } = made.json<{ id: string }>()
    const base = `${PUBLIC_URL}/scim/v2`
    const before = await readGroup(api.database.db, id, base)
    const reading = readGroup(api.database.db, id, base, true, 1)
    const patched = await scim.call(
      'PATCH',
      `/Groups/${id}`,
      patch(
        { op: 'remove', path: `members[value eq "${ids[0]}"]` },
        { op: 'add', path: 'members', value: [{ value: ids[7] }] },
      ),
    )
    assert.equal(patched.statusCode, 204, patched.body)
    const after = await readGroup(api.database.db, id, base)
    const read = await reading
    const state = (resource: typeof read) => ({
      version: (resource.meta as { version: string }).version,
      members: (resource.members as { value: string }[]).map((member) => member.value),
    })
    assert.notDeepEqual(state(before), state(after))
    assert.ok(
      [JSON.stringify(state(before)), JSON.stringify(state(after))].includes(
        JSON.stringify(state(read)),
      ),
      JSON.stringify(state(read)),
    )
  })

  it('PATCH adds and removes members as Entra ID and Okta send them; a member that is no User is refused, nothing written', async () => {
    const [a, b, c] = [await provision('m-a'), await provision('m-b'), await provision('m-c')]
    const { id } = (await scim.call('POST', '/Groups', group('Membros SCIM'))).json<{
      id: string
    }>()
    const added = await scim.call(
      'PATCH',
      `/Groups/${id}`,
      patch({
        op: 'Add',
        path: 'members',
        value: [{ value: a.id }, { value: b.id }, { value: c.id }],
      }),
    )
    assert.equal(added.statusCode, 204, added.body)
    assert.equal(added.body, '')
    assert.equal(
      added.headers.etag,
      (await scim.call('GET', `/Groups/${id}`)).headers.etag,
      'the ETag of what the PATCH made',
    )
    assert.equal(
      (
        await scim.call(
          'PATCH',
          `/Groups/${id}`,
          patch({ op: 'Remove', path: `members[value eq "${a.id}"]` }),
        )
      ).statusCode,
      204,
    )
    assert.equal(
      (
        await scim.call(
          'PATCH',
          `/Groups/${id}`,
          patch({ op: 'Remove', path: 'members', value: [{ value: b.id }] }),
        )
      ).statusCode,
      204,
    )
    assert.deepEqual([await teamOf(a.id), await teamOf(b.id), await teamOf(c.id)], [null, null, id])
    const ghost = await scim.call(
      'PATCH',
      `/Groups/${id}`,
      patch(
        { op: 'add', path: 'members', value: [{ value: a.id }] },
        { op: 'add', path: 'members', value: [{ value: '2819c223-7f76-453a-919d-413861904646' }] },
      ),
    )
    assertScimError(ghost, 400, 'invalidValue')
    assert.equal(await teamOf(a.id), null, 'nothing half-written')
    // Okta renames with a path-less replace carrying the id too. Attributes asked for: 200 and
    // the Group as they shape it (RFC 7644 §3.5.2).
    const renamed = await scim.call(
      'PATCH',
      `/Groups/${id}?excludedAttributes=members`,
      patch({ op: 'replace', value: { id, displayName: 'Membros Renomeados' } }),
    )
    assert.equal(renamed.statusCode, 200, renamed.body)
    const shaped = renamed.json<{ displayName: string; members?: unknown }>()
    assert.equal(shaped.displayName, 'Membros Renomeados')
    assert.equal(shaped.members, undefined)
    const whole = await scim.call(
      'PATCH',
      `/Groups/${id}?attributes=members`,
      patch({ op: 'add', path: 'members', value: [{ value: b.id }] }),
    )
    assert.deepEqual(
      whole
        .json<{ members: { value: string }[] }>()
        .members.map((member) => member.value)
        .sort(),
      [b.id, c.id].sort(),
    )
    assertScimError(
      await scim.call(
        'PATCH',
        `/Groups/${id}`,
        patch({ op: 'replace', path: 'members[value eq "x"].value', value: 'y' }),
      ),
      400,
      'noTarget',
    )
  })

  it('a group the single sign-on mapping names gives its role on joining and takes it back on leaving', async () => {
    const role = await api.call('POST', '/api/roles', adminToken, {
      name: 'Auditoria SCIM',
      description: 'lê o registro',
      permissions: ['audit.view'],
      scope: 'all',
    })
    assert.equal(role.statusCode, 201, role.body)
    const roleId = role.json<{ role: { id: string } }>().role.id
    const a = await provision('papel')
    const made = await scim.call(
      'POST',
      '/Groups',
      group('Auditores', [a.id], { externalId: 'grp-auditores' }),
    )
    assert.equal(made.statusCode, 201, made.body)
    assert.equal((await accountRow(a.id)).role_id.toLowerCase(), roleId)
    const { id } = made.json<{ id: string }>()
    await scim.call(
      'PATCH',
      `/Groups/${id}`,
      patch({ op: 'remove', path: `members[value eq "${a.id}"]` }),
    )
    assert.equal((await accountRow(a.id)).role_id.toLowerCase(), BUILT_IN_ROLE_IDS.staff)
    const admins = await scim.call('POST', '/Groups', group('Painel Admins', [a.id]))
    assert.equal(admins.statusCode, 201)
    assert.equal((await accountRow(a.id)).role, 'admin')
    assert.equal((await api.events(a.id, 'role_changed')).at(-1)?.actor_name, 'Entra ID')
  })

  it('PUT replaces the members; If-Match that does not match is 412; DELETE removes the team, not its people', async () => {
    const [a, b] = [await provision('put-a'), await provision('put-b')]
    const made = (await scim.call('POST', '/Groups', group('Troca SCIM', [a.id]))).json<{
      id: string
      meta: { version: string }
    }>()
    const put = await scim.call('PUT', `/Groups/${made.id}`, group('Troca SCIM', [b.id]), {
      'if-match': made.meta.version,
    })
    assert.equal(put.statusCode, 200, put.body)
    assert.deepEqual([await teamOf(a.id), await teamOf(b.id)], [null, made.id])
    assertScimError(
      await scim.call('PUT', `/Groups/${made.id}`, group('Troca SCIM', [a.id]), {
        'if-match': made.meta.version,
      }),
      412,
    )
    assert.equal(await teamOf(a.id), null)
    assert.equal((await scim.call('DELETE', `/Groups/${made.id}`)).statusCode, 204)
    assertScimError(await scim.call('GET', `/Groups/${made.id}`), 404)
    assert.equal(await teamOf(b.id), null)
    assert.equal((await accountRow(b.id)).status, 'active')
    // The log names the directory; on SQLite the people leave first, in steps, and the first
    // step records that the deletion began (roles/team-store.ts).
    const logged = await api.database.db
      .selectFrom('audit_events')
      .select(['type', 'actor_name', 'details'])
      .where('type', 'in', ['team_deletion_started', 'team_deleted'])
      .where('details', 'like', '%Troca SCIM%')
      .execute()
    assert.deepEqual(
      logged
        .map((event) => [event.type, event.actor_name, JSON.parse(event.details) as unknown])
        .sort(),
      [
        ...(api.database.engine === 'sqlite'
          ? [['team_deletion_started', 'Entra ID', { name: 'Troca SCIM', members: 1 }]]
          : []),
        ['team_deleted', 'Entra ID', { name: 'Troca SCIM', members: 1 }],
      ].sort(),
    )
  })

  it("a Group's version changes with all it shows, whoever writes it, and with nothing else", async () => {
    const [a, b, other] = [
      await provision('versao-a'),
      await provision('versao-b'),
      await provision('versao-outro'),
    ]
    const { id } = (await scim.call('POST', '/Groups', group('Versões SCIM', [a.id]))).json<{
      id: string
    }>()
    const elsewhere = (await scim.call('POST', '/Groups', group('Outro SCIM', [other.id]))).json<{
      id: string
    }>().id
    const tag = async () => {
      const whole = await scim.call('GET', `/Groups/${id}`)
      const bare = await scim.call('GET', `/Groups/${id}?excludedAttributes=members`)
      assert.equal(bare.headers.etag, whole.headers.etag, 'one version, with or without members')
      assert.equal(whole.json<{ meta: { version: string } }>().meta.version, whole.headers.etag)
      return String(whole.headers.etag)
    }
    const seen = [await tag()]
    const changes: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      [
        'a member renamed in Equipe',
        () => api.call('PATCH', `/api/staff/${a.id}`, adminToken, { name: 'Ana Versão' }),
      ],
      [
        'a person moved into it in Equipe',
        () => api.call('PATCH', `/api/staff/${b.id}`, adminToken, { teamId: id }),
      ],
      [
        'the team renamed in Equipe',
        () => api.call('PATCH', `/api/teams/${id}`, adminToken, { name: 'Versões Renomeadas' }),
      ],
      ['a member deleted by the directory', () => scim.call('DELETE', `/Users/${b.id}`)],
      [
        'a member moved out by another Group',
        () =>
          scim.call(
            'PATCH',
            `/Groups/${elsewhere}`,
            patch({ op: 'add', path: 'members', value: [{ value: a.id }] }),
          ),
      ],
    ]
    for (const [what, change] of changes) {
      const answer = await change()
      assert.ok(answer.statusCode < 300, `${what}: ${answer.statusCode} ${answer.body}`)
      const now = await tag()
      assert.ok(!seen.includes(now), `${what}: a new version`)
      seen.push(now)
    }
    const last = seen.at(-1)!
    const unrelated = await api.call('PATCH', `/api/staff/${other.id}`, adminToken, {
      name: 'Outra Pessoa',
    })
    assert.equal(unrelated.statusCode, 200, unrelated.body)
    assert.equal(await tag(), last, "a change to another Group's member is not this Group's")
    assertScimError(
      await scim.call(
        'PATCH',
        `/Groups/${id}`,
        patch({ op: 'replace', path: 'displayName', value: 'X' }),
        {
          'if-match': seen[0]!,
        },
      ),
      412,
    )
    assertScimError(
      await scim.call('DELETE', `/Groups/${id}`, undefined, { 'if-match': seen[0]! }),
      412,
    )
    const renamed = await scim.call(
      'PATCH',
      `/Groups/${id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Versões Finais' }),
      { 'if-match': last },
    )
    assert.equal(renamed.statusCode, 204, renamed.body)
    assert.equal(renamed.headers.etag, await tag())
  })

  it('a team deleted while a change moves two of its people out: both finish, one after the other', async () => {
    // Written in this order, so that the delete, taking the team's people out in that order,
    // has taken the first two before it waits for the third.
    const [second, other, first] = [
      await provision('apagado-b'),
      await provision('apagado-c'),
      await provision('apagado-a'),
    ]
    const everyone = [second, other, first].map((someone) => someone.id)
    const leaving = (await scim.call('POST', '/Groups', group('Apagado SCIM', everyone))).json<{
      id: string
    }>().id
    const staying = (await scim.call('POST', '/Groups', group('Destino SCIM'))).json<{
      id: string
    }>().id
    let held = () => {}
    const holding = new Promise<void>((resolve) => (held = resolve))
    // A change as a Group's PATCH adding two people makes it: each one's row locked (after the
    // admins' lock) and moved, one after the other.
    const move = async (trx: Db, id: string) => {
      await lockAccountForChange(trx, id)
      await trx.updateTable('accounts').set({ team_id: staying }).where('id', '=', id).execute()
    }
    const moving = api.database.db.transaction().execute(async (trx) => {
      await lockAccountForChange(trx, first.id)
      held()
      // The delete starts meanwhile, and waits for the first person's row (PostgreSQL) or for
      // the transaction (SQLite).
      await new Promise((resolve) => setTimeout(resolve, 300))
      await move(trx, first.id)
      await move(trx, second.id)
    })
    await holding
    const deleted = api.call('DELETE', `/api/teams/${leaving}`, adminToken)
    await moving
    assert.equal((await deleted).statusCode, 204)
    assert.deepEqual(
      await Promise.all([first, second, other].map((someone) => teamOf(someone.id))),
      [staying, staying, null],
    )
  })

  it('a Group with more members than one piece holds is answered whole, in SCIM JSON, with its ETag', async () => {
    const { id } = (await scim.call('POST', '/Groups', group('Muitos SCIM'))).json<{
      id: string
    }>()
    const many = MEMBERS_PER_PIECE + 5
    const ids = Array.from({ length: many }, () => crypto.randomUUID())
    for (let start = 0; start < many; start += 500)
      await api.database.db
        .insertInto('accounts')
        .values(
          ids.slice(start, start + 500).map((person, index) => ({
            id: person,
            ...nameColumns(`Pessoa Muitos ${start + index}`),
            email: `muitos-${start + index}@corp.example`,
            password_hash: 'x',
            ...roleColumns(BUILT_IN_ROLE_IDS.staff),
            status: 'active' as const,
            team_id: id,
          })),
        )
        .execute()
    const read = await scim.call('GET', `/Groups/${id}`)
    assert.equal(read.statusCode, 200)
    assert.match(String(read.headers['content-type']), /^application\/scim\+json/)
    const body = read.json<{ members: { value: string }[]; meta: { version: string } }>()
    assert.deepEqual(
      body.members.map((member) => member.value),
      [...ids].sort(),
    )
    assert.equal(read.headers.etag, body.meta.version)
    // Written as it was made, in pieces: no length known ahead.
    assert.equal(read.headers['content-length'], undefined)
    const listed = await scim.call(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "Muitos SCIM"')}`,
    )
    assert.equal(
      listed.json<{ Resources: { members: unknown[] }[] }>().Resources[0]!.members.length,
      many,
    )
  })

  it('a person the directory deleted is no member: not shown, and not found by a members filter', async () => {
    const [gone, stays] = [await provision('grupo-removida'), await provision('grupo-fica')]
    const made = await scim.call('POST', '/Groups', group('Removidos SCIM', [gone.id, stays.id]))
    assert.equal(made.statusCode, 201, made.body)
    const { id } = made.json<{ id: string }>()
    const onlyGone = await scim.call('POST', '/Groups', group('Só Removida SCIM'))
    const onlyGoneId = onlyGone.json<{ id: string }>().id
    // Moved to the second group, then deleted by the directory (their team stays on the row).
    await scim.call(
      'PATCH',
      `/Groups/${onlyGoneId}`,
      patch({ op: 'add', path: 'members', value: [{ value: gone.id }] }),
    )
    assert.equal((await scim.call('DELETE', `/Users/${gone.id}`)).statusCode, 204)
    assert.equal(await teamOf(gone.id), onlyGoneId)
    const found = async (filter: string) =>
      (await scim.call('GET', `/Groups?filter=${encodeURIComponent(filter)}`))
        .json<{ Resources: { id: string }[] }>()
        .Resources.map((resource) => resource.id)
    assert.deepEqual(await found(`members[value eq "${gone.id}"]`), [])
    assert.deepEqual(await found(`members.value eq "${gone.id}"`), [])
    assert.deepEqual(await found(`members[value eq "${stays.id}"]`), [id])
    const present = await found('members pr')
    assert.ok(present.includes(id))
    assert.ok(!present.includes(onlyGoneId), 'a Group whose only member is deleted has none')
    const read = (await scim.call('GET', `/Groups/${onlyGoneId}`)).json<Record<string, unknown>>()
    assert.equal(read.members, undefined)
  })

  it('PATCHes adding members to one Group at once: every member is in it', async () => {
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => provision(`junto-${n}`)))
    const { id } = (await scim.call('POST', '/Groups', group('Juntos SCIM'))).json<{ id: string }>()
    const answers = await Promise.all(
      people.map((person) =>
        scim.call(
          'PATCH',
          `/Groups/${id}`,
          patch({ op: 'add', path: 'members', value: [{ value: person.id }] }),
        ),
      ),
    )
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      people.map(() => 204),
    )
    const read = (await scim.call('GET', `/Groups/${id}`)).json<{ members: { value: string }[] }>()
    assert.deepEqual(
      read.members.map((member) => member.value).sort(),
      people.map((person) => person.id).sort(),
    )
  })
})
