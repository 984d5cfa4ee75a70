import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { holdEventLoop, testApp } from '../test/helpers'
import { testDatabase } from '../test/test-database'

/** What ops rely on: request ids, the client's address behind a proxy, load shedding. */

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

describe('request ids', () => {
  it('every answer carries an X-Request-Id, and every log line of that request the same id', async () => {
    const { app, logLines } = await testApp(dist.distDir, { logLevel: 'info' })
    const ok = await app.inject({ url: dist.script.url })
    const missing = await app.inject({ url: '/assets/nope.js' })
    const ids = [ok.headers['x-request-id'], missing.headers['x-request-id']]
    for (const id of ids) assert.match(String(id), /^[0-9a-f-]{36}$/)
    assert.notEqual(ids[0], ids[1])
    const lines = logLines().filter((line) => line.reqId !== undefined)
    assert.ok(lines.length >= 2)
    assert.deepEqual([...new Set(lines.map((line) => line.reqId))].sort(), [...ids].sort())
    await app.close()
  })

  it('keeps the X-Request-Id of a trusted proxy, and only then', async () => {
    const headers = { 'x-request-id': 'proxy-abc.123' }
    const behindProxy = await testApp(dist.distDir, { trustProxy: ['127.0.0.1'] })
    const kept = await behindProxy.app.inject({ url: '/healthz', headers })
    assert.equal(kept.headers['x-request-id'], 'proxy-abc.123')
    const hostile = await behindProxy.app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'a"\n{"level":60}' },
    })
    assert.match(String(hostile.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    await behindProxy.app.close()

    const direct = await testApp(dist.distDir)
    const replaced = await direct.app.inject({ url: '/healthz', headers })
    assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    await direct.app.close()
  })
})

describe('TRUST_PROXY', () => {
  const fromProxy = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } }

  it('off: the address is the connection’s, whatever X-Forwarded-For says', async () => {
    const { app, logLines } = await testApp(dist.distDir, { logLevel: 'info' })
    await app.inject({ url: dist.script.url, ...fromProxy })
    const line = logLines().find((entry) => entry.msg === 'request completed')
    assert.equal(line?.remoteAddress, '127.0.0.0/24')
    await app.close()
  })

  it('on: logs and the sign-in limits use the client’s address from the proxy', async () => {
    const database = await testDatabase()
    const { app, logLines } = await testApp(dist.distDir, {
      database,
      trustProxy: ['127.0.0.1'],
      logLevel: 'info',
    })
    await app.inject({ url: dist.script.url, ...fromProxy })
    const line = logLines().find((entry) => entry.msg === 'request completed')
    // The log keeps the network only (http/loggable-request.ts).
    assert.equal(line?.remoteAddress, '203.0.113.0/24')

    // 50 failed sign-ins from one client behind the proxy stop that client, not the others.
    const signIn = (client: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `x${Math.random()}@example.com`, password: 'wrong-password' },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      })
    for (let attempt = 0; attempt < 50; attempt += 1) await signIn('203.0.113.50')
    assert.equal((await signIn('203.0.113.50')).statusCode, 429)
    assert.equal((await signIn('203.0.113.51')).statusCode, 401)
    await app.close()
    await database.close()
  })

  it('does not believe X-Forwarded-For from an address it does not trust', async () => {
    const { app, logLines } = await testApp(dist.distDir, {
      trustProxy: ['10.0.0.0/8'],
      logLevel: 'info',
    })
    await app.inject({ url: dist.script.url, ...fromProxy })
    assert.equal(
      logLines().find((entry) => entry.msg === 'request completed')?.remoteAddress,
      '127.0.0.0/24',
    )
    await app.close()
  })
})

/**
 * under-pressure samples the loop's delay every 10 ms (its resolution) and judges it every
 * sampleInterval; a window without a sample (the loop held for all of it) counts as infinitely
 * late. A calm loop may need a window or two after start, hence the wait for a first 200.
 */
async function waitUntilAnswering(app: FastifyInstance): Promise<void> {
  const until = Date.now() + 3000
  while ((await app.inject({ url: '/' })).statusCode !== 200) {
    assert.ok(Date.now() < until, 'the server never answered 200 on a calm loop')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('load shedding', () => {
  it('answers 503 with Retry-After while the event loop is saturated, but keeps /healthz alive', async () => {
    const { app } = await testApp(dist.distDir, {
      loadShedding: { maxEventLoopDelay: 20, sampleInterval: 50 },
    })
    await app.ready()
    await waitUntilAnswering(app)

    // Hold the event loop, then look while the sampler judges the delay: the next judgement
    // (within one sampleInterval) sees it, and it holds until the one after. On a loaded machine
    // (a run beside a build) one hold was once missed, the process being late to look as well:
    // hold again, for 3 s at most. What a refusal must be is asserted below, unchanged.
    let refused = await app.inject({ url: '/' })
    const deadline = Date.now() + 3000
    while (refused.statusCode === 200 && Date.now() < deadline) {
      holdEventLoop(200)
      const looking = Date.now() + 300
      while (refused.statusCode === 200 && Date.now() < looking) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        refused = await app.inject({ url: '/' })
      }
    }
    assert.equal(refused.statusCode, 503)
    assert.equal(refused.headers['retry-after'], '10')
    assert.equal(refused.headers['x-frame-options'], 'DENY', 'the security headers are there too')
    assert.match(String(refused.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    assert.deepEqual(refused.json(), {
      error: {
        code: 'service_unavailable',
        message: 'O servidor está sobrecarregado. Tente novamente em alguns segundos.',
      },
    })
    assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200)
    await app.close()
  })

  it('refuses nobody for start-up’s own long turns: a new server’s first requests are served', async () => {
    // Its start-up grace on a clock held still (two windows after ready, load-shedding.ts).
    const { app } = await testApp(dist.distDir, {
      loadShedding: { maxEventLoopDelay: 20, sampleInterval: 50, now: () => 0 },
    })
    // A long turn as start-up has on a busy machine, after the delay is first measured.
    app.addHook('onReady', async () => holdEventLoop(300))
    await app.ready()
    // Asked across several windows: the first judged after ready holds the 300 ms turn.
    const statuses = new Set<number>()
    const until = Date.now() + 300
    while (Date.now() < until) {
      statuses.add((await app.inject({ url: '/' })).statusCode)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    assert.deepEqual([...statuses], [200])
    await app.close()
  })

  it('keeps answering a loop that is fully busy but never late (a burst of quick requests)', async () => {
    // A delay limit far above the tasks' 5 ms: what this rules out is shedding for utilisation,
    // and a busy CI machine may leave the process waiting a few hundred ms for a core. The window
    // is 250 ms, not 50: a window with no sample of the loop at all counts as infinitely late
    // (see waitUntilAnswering). This test once got 503 beside a PostgreSQL pass, most likely a
    // process left without a core for a whole 50 ms window, which was judged so and refused.
    const { app } = await testApp(dist.distDir, {
      loadShedding: { maxEventLoopDelay: 2000, sampleInterval: 250 },
    })
    await app.ready()
    await waitUntilAnswering(app)
    // 600 ms of 5 ms tasks back to back (two whole windows at least): utilisation near 100%, no
    // task late by more than 5 ms.
    const until = Date.now() + 600
    while (Date.now() < until) {
      holdEventLoop(5)
      await new Promise((resolve) => setImmediate(resolve))
    }
    assert.equal((await app.inject({ url: '/' })).statusCode, 200)
    await app.close()
  })
})
