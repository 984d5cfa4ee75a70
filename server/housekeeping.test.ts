import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout } from 'node:timers/promises'
import { createFixtureDist, type FixtureDist } from './test/fixture-dist'
import { testApp } from './test/helpers'
import { testDatabase, testStoreName } from './test/test-database'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

// Housekeeping (server/built-in-api.ts) runs after the start rather than before the server
// listens: a start answers first, and the expired rows still go.
describe(`housekeeping (${testStoreName()})`, () => {
  it('leaves a start to answer first, then removes what expired', async () => {
    const database = await testDatabase()
    const key = 'ip:203.0.113.0/24'
    const ended = new Date(Date.now() - 60_000)
    await database.db
      .insertInto('sign_in_limits')
      .values({ key, account: null, count: 3, window_ends_at: ended, blocked_until: ended })
      .execute()
    const left = async () =>
      (
        await database.db
          .selectFrom('sign_in_limits')
          .select('key')
          .where('key', '=', key)
          .execute()
      ).length

    const started = await testApp(dist.distDir, { database })
    await started.app.ready()
    assert.equal((await started.app.inject('/healthz')).statusCode, 200)
    assert.equal(await left(), 1, 'still there once the server answers: the first round waits')
    await started.app.close()

    const soon = await testApp(dist.distDir, { database, housekeepingDelayMs: 0 })
    await soon.app.ready()
    // No time limit of its own: a round that never comes fails at the test runner's.
    while ((await left()) > 0) await setTimeout(20)
    await soon.app.close()
    await database.close()
  })
})
