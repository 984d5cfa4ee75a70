import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import heapSettle, { fullCollection, settleAfter } from './heap-settle'

const limits = { busyRequests: 200, quietRequests: 20 }

describe('a full collection when a busy spell has passed', () => {
  it('collects at the first quiet check after a busy one, and only then', () => {
    assert.deepEqual(settleAfter(false, 500, limits), { busy: true, collect: false })
    assert.deepEqual(settleAfter(true, 300, limits), { busy: true, collect: false })
    assert.deepEqual(settleAfter(true, 3, limits), { busy: false, collect: true })
    // Quiet again, or never busy: nothing to give back.
    assert.deepEqual(settleAfter(false, 3, limits), { busy: false, collect: false })
    // Neither busy nor quiet: the spell goes on until a quiet check ends it.
    assert.deepEqual(settleAfter(true, 100, limits), { busy: true, collect: false })
    assert.deepEqual(settleAfter(false, 100, limits), { busy: false, collect: false })
  })

  it('counts every request, and collects once when they stop', async () => {
    let check: () => void = () => assert.fail('not scheduled')
    let stopped = false
    let collections = 0
    const app = Fastify()
    await app.register(heapSettle, {
      checkEveryMs: 10_000,
      busyRequests: 5,
      quietRequests: 1,
      every: (run) => {
        check = run
        return () => (stopped = true)
      },
      collect: () => (collections += 1),
    })
    app.get('/', async () => 'ok')
    for (let n = 0; n < 5; n++) assert.equal((await app.inject('/')).statusCode, 200)
    check()
    assert.equal(collections, 0, 'still busy')
    await app.inject('/')
    check()
    assert.equal(collections, 1, 'collected once the spell was over')
    check()
    assert.equal(collections, 1, 'and not again while nothing happens')
    await app.close()
    assert.ok(stopped, 'the checks stop with the server')
  })

  it("V8's full collection frees what no one holds any more", () => {
    // Kept through several collections of the young generation, so it sits in the old one,
    // which only a full collection empties; unreachable once the function returns.
    const holding = (() => {
      const held = Array.from({ length: 400_000 }, (_, n) => ({ n, text: `x${n}` }))
      fullCollection()
      assert.equal(held.length, 400_000)
      return process.memoryUsage().heapUsed
    })()
    fullCollection()
    const freed = holding - process.memoryUsage().heapUsed
    assert.ok(freed > 10 * 1024 * 1024, `freed ${Math.round(freed / 1024)} KB`)
  })
})
