import { DEFAULT_SESSION_WATCH, SessionWatch } from '../accounts/session-watch'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import { createAccount } from '../accounts/accounts'
import { createSession } from '../accounts/sessions'
import { SignInLimits } from '../accounts/sign-in-limits'
import type { ApiContext } from '../api/api-context'
import { BackgroundWork } from '../api/background-work'
import { loadConfig } from '../config/config'
import type { Database } from '../db/database'
import type { Role } from '../db/schema'
import type { MailOutbox } from '../mail/outbox'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { testDatabase, testStoreName } from '../test/test-database'
import type { OperationAccess } from '../../common/permissions'
import {
  burstLimit,
  denyByDefault,
  guardedRoutes,
  PUBLIC,
  signedIn,
  typingLimit,
  type Guard,
} from './guarded-routes'

/**
 * A feature's guard is declared once, for its plugin (guarded-routes.ts): a route planted in a
 * guarded plugin, with nothing on the route itself, is guarded; and the panel's own features
 * answer the same way through the API.
 */

/** A guard that is no session: a header of its own, its answers never cached. */
const ownToken: Guard = {
  name: 'own token',
  hook: () => async (request) => {
    if (request.headers['x-own-token'] !== 'sim')
      throw Object.assign(new Error('no token'), { statusCode: 401 })
  },
  noStore: true,
}

describe(`a route planted in a guarded plugin (${testStoreName()})`, () => {
  let database: Database
  let app: FastifyInstance
  const tokens: Record<Role, string> = { admin: '', staff: '' }
  let burstCalls = 0
  let typingCalls = 0

  before(async () => {
    database = await testDatabase()
    const { db } = database
    for (const role of ['admin', 'staff'] as const) {
      const account = await createAccount(db, {
        name: `Pessoa ${role}`,
        email: `${role}-planted@example.com`,
        passwordHash: 'not used',
        role,
        status: 'active',
      })
      tokens[role] = await createSession(db, account!.id, 3600)
    }
    const config = { ...loadConfig({}), mfaRequired: 'off' as const }
    app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>()
    const context: ApiContext = {
      db,
      now: () => new Date(),
      outbox: {} as MailOutbox,
      log: app.log,
      config,
      limits: new SignInLimits(db, () => new Date()),
      burstLimit: async () => {
        burstCalls += 1
      },
      typingLimit: async () => {
        typingCalls += 1
      },
      background: new BackgroundWork(app.log),
      sessionWatch: new SessionWatch(async () => new Map(), DEFAULT_SESSION_WATCH, app.log),
    }
    denyByDefault(app, context)
    const plant = (path: string, guards: readonly Guard[], access: OperationAccess) =>
      app.register(
        guardedRoutes(guards, async (scope) => {
          scope.get('/', { schema: { 'x-permission': access } }, async () => ({ planted: path }))
        }),
        { ...context, prefix: path },
      )
    await plant('/public', PUBLIC, 'public')
    await plant('/counted', [burstLimit], 'public')
    await plant('/typed', [typingLimit], 'public')
    await plant('/signed-in', [signedIn], 'signed-in')
    await plant('/permission', [signedIn], 'audit.view')
    // A guard of its own (as /scim/v2's token): its answers are not cached, and no session is asked.
    await plant('/own-token', [ownToken], 'public')
    // A permission behind a public plugin: the declaration alone asks for the session.
    await plant('/declared-only', PUBLIC, 'staff.view')
    await app.ready()
  })
  after(async () => {
    await app.close()
    await database.close()
  })

  const get = (url: string, token?: string) =>
    app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} })

  it('public: anyone, and nothing says no-store', async () => {
    const answer = await get('/public')
    assert.equal(answer.statusCode, 200)
    assert.equal(answer.headers['cache-control'], undefined)
  })

  it('burst limit: every call goes through the one limiter of the context', async () => {
    const calls = burstCalls
    assert.equal((await get('/counted')).statusCode, 200)
    assert.equal(burstCalls, calls + 1)
  })

  it('typing limit: every call goes through its own limiter, not the burst limit', async () => {
    const [burst, typing] = [burstCalls, typingCalls]
    assert.equal((await get('/typed')).statusCode, 200)
    assert.deepEqual([burstCalls, typingCalls], [burst, typing + 1])
  })

  it('signed in: no session 401 (Bearer), a session 200, never cached', async () => {
    const anonymous = await get('/signed-in')
    assert.equal(anonymous.statusCode, 401)
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer')
    assert.equal((await get('/signed-in', 'not-a-session-token')).statusCode, 401)
    for (const token of [tokens.staff, tokens.admin]) {
      const answer = await get('/signed-in', token)
      assert.equal(answer.statusCode, 200, answer.body)
      assert.equal(answer.headers['cache-control'], 'no-store')
    }
  })

  it('a guard of its own that is no session: declared public, 401 and 200 both never cached', async () => {
    const refused = await get('/own-token')
    assert.equal(refused.statusCode, 401)
    assert.equal(refused.headers['cache-control'], 'no-store')
    const answer = await app.inject({ url: '/own-token', headers: { 'x-own-token': 'sim' } })
    assert.equal(answer.statusCode, 200, answer.body)
    assert.equal(answer.headers['cache-control'], 'no-store')
  })

  it('a permission: no session 401, Equipe 403, Administrador 200, never cached', async () => {
    for (const path of ['/permission', '/declared-only']) {
      assert.equal((await get(path)).statusCode, 401)
      const asStaff = await get(path, tokens.staff)
      assert.equal(asStaff.statusCode, 403)
      const asAdmin = await get(path, tokens.admin)
      assert.equal(asAdmin.statusCode, 200, asAdmin.body)
    }
    assert.equal((await get('/permission', tokens.staff)).headers['cache-control'], 'no-store')
  })
})

describe('a route that declares nothing, or sits outside guardedRoutes (deny by default)', () => {
  const context = { config: loadConfig({}) } as unknown as ApiContext
  const boot = async (plugin: (app: FastifyInstance) => Promise<void>) => {
    const app = Fastify({ logger: false })
    // As server/built-in-api.ts does: the check on the instance the features are registered under.
    await app.register(async (api) => {
      denyByDefault(api, context)
      await api.register(plugin, { prefix: '/api/x' })
    })
    try {
      await app.ready()
    } finally {
      await app.close()
    }
  }
  const start = (access: unknown, guards: readonly Guard[] = PUBLIC) =>
    boot(async (app) => {
      await app.register(
        guardedRoutes(guards, async (scope) => {
          const schema = access === undefined ? {} : { 'x-permission': access as OperationAccess }
          scope.get('/', { schema }, async () => ({}))
        }),
        context,
      )
    })

  it('stops the app at start, naming the route', async () => {
    await assert.rejects(start(undefined), /GET \/api\/x\/? declares no access/)
    await assert.rejects(start('staff.everything'), /declares no access/)
    await assert.rejects(start(''), /declares no access/)
  })

  it('refuses `public` behind the signedIn guard, and starts with a real declaration', async () => {
    await assert.rejects(start('public', [signedIn]), /declared public behind signedIn/)
    await start('staff.view', [signedIn])
    await start('public', [ownToken])
  })

  it('stops the app at start for a plugin not wrapped in guardedRoutes, declared or not', async () => {
    for (const schema of [{}, { 'x-permission': 'public' as const }]) {
      await assert.rejects(
        boot(async (app) => {
          app.get('/', { schema }, async () => ({}))
        }),
        /GET \/api\/x\/? sits in a plugin not wrapped in guardedRoutes/,
      )
    }
  })
})

describe(`the features' guards through the API (${testStoreName()})`, () => {
  let api: ApiFixture
  let admin: string
  let staff: string
  before(async () => {
    api = await apiFixture()
    admin = await api.signIn(ADMIN.email, ADMIN.password)
    await api.addAccount({ email: 'equipe-guard@example.com', password: 'senha-da-equipe-1' })
    staff = await api.signIn('equipe-guard@example.com', 'senha-da-equipe-1')
  })
  after(() => api.close())

  for (const [url, adminsOnly] of [
    ['/api/staff', true],
    ['/api/audit', true],
    ['/api/dashboard', true],
    ['/api/dashboard/me', false],
    ['/api/me/sessions', false],
    ['/api/me/passkeys', false],
    ['/api/auth/me', false],
  ] as const) {
    it(`${url}: no session 401, ${adminsOnly ? 'staff 403, ' : ''}and never cached`, async () => {
      const anonymous = await api.get(url)
      assert.equal(anonymous.statusCode, 401)
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer')
      const asStaff = await api.get(url, staff)
      assert.equal(asStaff.statusCode, adminsOnly ? 403 : 200, asStaff.body)
      const asAdmin = await api.get(url, admin)
      assert.equal(asAdmin.statusCode, 200, asAdmin.body)
      for (const answer of [asStaff, asAdmin]) {
        assert.equal(answer.headers['cache-control'], 'no-store')
      }
    })
  }
})
