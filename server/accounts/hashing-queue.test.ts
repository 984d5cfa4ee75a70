import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'
import { HashingBusyError, HashingQueue } from './hashing-queue'
import { hashingQueue } from './passwords'

describe('the bounded hashing queue', () => {
  it('runs at most `concurrency` tasks, queues `maxWaiting`, refuses the rest at once', async () => {
    const queue = new HashingQueue(1, 2)
    const releases: (() => void)[] = []
    const started: number[] = []
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n)
        releases.push(() => resolve(n))
      })
    const running = [queue.run(task(1)), queue.run(task(2)), queue.run(task(3))]
    await assert.rejects(queue.run(task(4)), (error: unknown) => {
      assert.ok(error instanceof HashingBusyError)
      assert.equal(error.statusCode, 503)
      assert.equal(error.headers['retry-after'], '2')
      return true
    })
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(started, [1])
    assert.deepEqual(queue.load, { running: 1, waiting: 2 })
    for (let n = 0; n < 3; n += 1) {
      releases.shift()?.()
      await new Promise((resolve) => setImmediate(resolve))
    }
    assert.deepEqual(await Promise.all(running), [1, 2, 3])
    assert.deepEqual(queue.load, { running: 0, waiting: 0 })
  })

  it('refuses in advance exactly when `run` would refuse', async () => {
    const queue = new HashingQueue(1, 1)
    const releases: (() => void)[] = []
    const task = () => new Promise<void>((resolve) => releases.push(resolve))
    queue.refuseWhenFull()
    const first = queue.run(task)
    queue.refuseWhenFull()
    const second = queue.run(task)
    assert.throws(() => queue.refuseWhenFull(), HashingBusyError)
    await assert.rejects(queue.run(task), HashingBusyError)
    releases.shift()?.()
    await first
    queue.refuseWhenFull()
    releases.shift()?.()
    await second
  })
})

let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000 })
})
after(() => api.close())

describe(`a sign-in flood from many addresses (${testStoreName()})`, () => {
  it('sheds what the hashing queue cannot hold (503 + Retry-After), and /healthz and static files stay fast', async () => {
    // The queue's load, sampled while the flood runs: how many the server checks in all depends
    // on how fast the machine frees slots (a loaded CI machine spreads the arrivals out), but at
    // no moment may it hold more than its bounds.
    const peak = { running: 0, waiting: 0 }
    const sampler = setInterval(() => {
      peak.running = Math.max(peak.running, hashingQueue.load.running)
      peak.waiting = Math.max(peak.waiting, hashingQueue.load.waiting)
    }, 1)
    // Order, not milliseconds (a loaded CI machine stretches every time): /healthz and the page
    // answer while sign-ins of the flood are still waiting for the hashing queue.
    let settled = 0
    const flood = Array.from({ length: 80 }, (_, i) =>
      api.app
        .inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `inundacao-${i}@example.com`, password: 'senha-qualquer-1' },
          remoteAddress: `10.9.${i >> 8}.${i & 255}`,
        })
        .then((response) => {
          settled += 1
          return { response }
        }),
    )
    await new Promise((resolve) => setTimeout(resolve, 20))
    const [health, page] = await Promise.all([api.get('/healthz'), api.get('/')])
    const settledWhenProbed = settled
    const results = await Promise.all(flood).finally(() => clearInterval(sampler))

    assert.equal(health.statusCode, 200)
    assert.equal(page.statusCode, 200)
    const checkedInAll = results.filter(({ response }) => response.statusCode === 401).length
    assert.ok(
      settledWhenProbed < results.length,
      `/healthz and / answered after ${settledWhenProbed} of ${results.length} sign-ins (${checkedInAll} checked)`,
    )

    const shed = results.filter(({ response }) => response.statusCode === 503)
    const checked = results.filter(({ response }) => response.statusCode === 401)
    assert.ok(shed.length > 0, 'some requests were shed')
    assert.equal(shed.length + checked.length, results.length)
    for (const { response } of shed) {
      assert.equal(response.headers['retry-after'], '2')
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'server_busy')
    }
    assert.ok(checked.length > 0, 'some requests were checked')
    assert.ok(peak.running > 0, 'the sampler saw the queue at work')
    assert.ok(peak.running <= hashingQueue.concurrency, `${peak.running} hashes at once`)
    assert.ok(peak.waiting <= hashingQueue.maxWaiting, `${peak.waiting} waiting at once`)
    // A shed request did not count as a failed try: the same guess is checked once the flood ends.
    const again = await api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'inundacao-79@example.com', password: 'senha-qualquer-1' },
      remoteAddress: '10.9.0.79',
    })
    assert.equal(again.statusCode, 401)
  })
})
