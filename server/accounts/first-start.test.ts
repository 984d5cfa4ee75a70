import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { hashPasswordAtStart } from './passwords'
import { testApp } from '../test/helpers'
import { testDatabase, testDatabaseLocation, testStoreName } from '../test/test-database'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

const signIn = (app: Awaited<ReturnType<typeof testApp>>['app'], email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })

describe(`the first start (${testStoreName()})`, () => {
  it('without ADMIN_EMAIL/ADMIN_PASSWORD creates admin@localhost and logs its password once', async () => {
    const location = await testDatabaseLocation()
    const settings = {
      databaseUrl: location.databaseUrl,
      dataDir: location.dataDir,
      logLevel: 'info' as const,
    }
    const first = await testApp(dist.distDir, settings)
    // testApp without a database means proxy mode; these apps open their own, as production does.
    const lines = first
      .logLines()
      .filter((line) => String(line.msg).startsWith('FIRST ADMIN CREATED'))
    assert.equal(lines.length, 1)
    const password = /with the password (\S+) /.exec(String(lines[0]?.msg))?.[1]
    assert.ok(password)
    assert.equal((await signIn(first.app, 'admin@localhost', password)).statusCode, 200)
    await first.app.close()

    // A restart finds the data (the admin, its password) and creates no second admin.
    const second = await testApp(dist.distDir, settings)
    assert.equal(
      second.logLines().filter((line) => String(line.msg).includes('FIRST ADMIN')).length,
      0,
    )
    assert.equal((await signIn(second.app, 'admin@localhost', password)).statusCode, 200)
    await second.app.close()
    await location.cleanup()
  })

  it('with ADMIN_EMAIL and ADMIN_PASSWORD creates that admin and never logs the password', async () => {
    const database = await testDatabase()
    const { app, logLines } = await testApp(dist.distDir, {
      database,
      logLevel: 'info',
      adminEmail: 'Dona@Example.com',
      adminPassword: 'senha-da-dona-1',
    })
    assert.equal((await signIn(app, 'dona@example.com', 'senha-da-dona-1')).statusCode, 200)
    assert.doesNotMatch(JSON.stringify(logLines()), /senha-da-dona-1/)
    await app.close()
    await database.close()
  })

  it("stores ADMIN_PASSWORD's hash as main.ts began it, and no hash begun for another password", async () => {
    // main.ts begins the hash on a DATA_DIR with no database before the server loads; the admin's
    // account must hold that very hash (not one made again), and it must be the password's.
    const begun = { password: 'senha-da-dona-1', hash: hashPasswordAtStart('senha-da-dona-1') }
    const database = await testDatabase()
    const hashOf = async (email: string) =>
      (
        await database.db
          .selectFrom('accounts')
          .select('password_hash')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).password_hash
    const first = await testApp(dist.distDir, {
      database,
      adminEmail: 'dona@example.com',
      adminPassword: 'senha-da-dona-1',
      adminPasswordHash: begun,
    })
    assert.equal(await hashOf('dona@example.com'), await begun.hash)
    assert.equal((await signIn(first.app, 'dona@example.com', 'senha-da-dona-1')).statusCode, 200)
    await first.app.close()

    // A hash begun for another password than ADMIN_PASSWORD, or with none set (a random one),
    // is not given to the admin: each is hashed from its own password.
    for (const [email, adminPassword] of [
      ['outra@example.com', 'senha-da-outra-1'],
      ['sem-senha@example.com', null],
    ] as const) {
      await database.db.updateTable('accounts').set({ status: 'disabled' }).execute()
      const { app } = await testApp(dist.distDir, {
        database,
        adminEmail: email,
        adminPassword,
        adminPasswordHash: begun,
      })
      assert.notEqual(await hashOf(email), await begun.hash, email)
      assert.equal((await signIn(app, email, 'senha-da-dona-1')).statusCode, 401, email)
      if (adminPassword) assert.equal((await signIn(app, email, adminPassword)).statusCode, 200)
      await app.close()
    }
    await database.close()
  })

  it('keeps accounts and sessions across a restart', async () => {
    const location = await testDatabaseLocation()
    const settings = {
      databaseUrl: location.databaseUrl,
      dataDir: location.dataDir,
      adminEmail: 'chefe@example.com',
      adminPassword: 'senha-do-chefe-1',
    }
    const before = await testApp(dist.distDir, settings)
    await before.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Ana', email: 'ana@example.com', password: 'senha-da-ana-1' },
    })
    const token = (await signIn(before.app, 'chefe@example.com', 'senha-do-chefe-1')).json<{
      token: string
    }>().token
    await before.app.close()

    const after = await testApp(dist.distDir, settings)
    const me = await after.app.inject({
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(me.statusCode, 200, 'the session survived the restart')
    const ana = await signIn(after.app, 'ana@example.com', 'senha-da-ana-1')
    assert.equal(ana.json<{ error: { code: string } }>().error.code, 'pending_approval')
    await after.app.close()
    await location.cleanup()
  })

  it('restores an active admin at start when none is left: ADMIN_EMAIL made admin again, or created', async () => {
    const database = await testDatabase()
    const first = await testApp(dist.distDir, {
      database,
      adminEmail: 'dona@example.com',
      adminPassword: 'senha-da-dona-1',
    })
    await first.app.close()
    // Every admin disabled (as the old own-account hole allowed).
    await database.db.updateTable('accounts').set({ status: 'disabled' }).execute()

    const restored = await testApp(dist.distDir, {
      database,
      logLevel: 'info',
      adminEmail: 'dona@example.com',
      adminPassword: 'senha-nova-da-dona',
    })
    assert.equal(
      (await signIn(restored.app, 'dona@example.com', 'senha-nova-da-dona')).statusCode,
      200,
    )
    assert.ok(
      restored.logLines().some((line) => String(line.msg).startsWith('NO ACTIVE ADMIN')),
      'the restore is logged',
    )
    await restored.app.close()

    // A new ADMIN_EMAIL when no admin is active: a new admin is created.
    await database.db.updateTable('accounts').set({ status: 'disabled' }).execute()
    const created = await testApp(dist.distDir, {
      database,
      adminEmail: 'novo-chefe@example.com',
      adminPassword: 'senha-do-novo-1',
    })
    assert.equal(
      (await signIn(created.app, 'novo-chefe@example.com', 'senha-do-novo-1')).statusCode,
      200,
    )
    await created.app.close()
    await database.close()
  })

  it('/readyz is 503 when the database stops answering', async () => {
    const database = await testDatabase()
    const { app } = await testApp(dist.distDir, { database })
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
    await database.close()
    const response = await app.inject({ url: '/readyz' })
    assert.equal(response.statusCode, 503)
    assert.deepEqual(response.json(), { status: 'unavailable' })
    assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200)
    await app.close()
  })
})
