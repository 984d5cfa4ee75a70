import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../test/api-fixture'
import { holdAuditLog as heldAuditLog } from '../test/held-audit-log'
import { listenOnFreePort } from '../test/helpers'
import { testStoreName } from '../test/test-database'
import { AdmissionQueue, QueueCancelled, QueueRefusal } from './admission'

/** A clock the test moves: waits are what the test says, whatever the machine's load. */
class ManualClock {
  at = 0
  readonly now = () => this.at
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

/** Whether a promise has settled yet (without waiting for it). */
async function state(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let result: 'pending' | 'resolved' | 'rejected' = 'pending'
  promise.then(
    () => (result = 'resolved'),
    () => (result = 'rejected'),
  )
  await settle()
  return result
}

describe('the admission queue', () => {
  const options = { concurrency: 2, maxWaitMs: 500, retryAfterSeconds: 2 }

  it('serves `concurrency` at once and the rest in arrival order as places free up', async () => {
    const queue = new AdmissionQueue(options, new ManualClock().now)
    const first = await queue.enter().admitted
    await queue.enter().admitted
    const third = queue.enter().admitted
    const fourth = queue.enter().admitted
    assert.equal(await state(third), 'pending')
    first()
    assert.equal(await state(third), 'resolved')
    assert.equal(await state(fourth), 'pending')
    ;(await third)()
    assert.equal(await state(fourth), 'resolved')
    assert.deepEqual({ ...queue.load, meanHoldMs: 0 }, { running: 2, waiting: 0, meanHoldMs: 0 })
  })

  it('refuses with 503 and Retry-After a request whose turn comes after it waited too long', async () => {
    const clock = new ManualClock()
    const queue = new AdmissionQueue(options, clock.now)
    const leaves = [await queue.enter().admitted, await queue.enter().admitted]
    const late = queue.enter().admitted
    late.catch(() => {})
    clock.at += 400
    const inTime = queue.enter().admitted
    clock.at += 101 // the first waiter has now waited 501 ms, the second 101 ms
    leaves[0]!()
    await assert.rejects(late, (error: unknown) => {
      assert.ok(error instanceof QueueRefusal)
      assert.equal(error.reason, 'queue_timeout')
      assert.equal(error.statusCode, 503)
      assert.equal(error.code, 'server_busy')
      assert.equal(error.headers['retry-after'], '2')
      return true
    })
    // The place went to the next in line, which had not waited too long.
    assert.equal(await state(inTime), 'resolved')
  })

  it('refuses at once what would wait too long, from the time requests take', async () => {
    const clock = new ManualClock()
    const queue = new AdmissionQueue({ ...options, concurrency: 1 }, clock.now)
    const leave = await queue.enter().admitted
    clock.at += 400
    leave() // a request holds its place 400 ms
    await queue.enter().admitted // now running: the next would wait ~400 ms
    const waiting = queue.enter().admitted
    assert.equal(await state(waiting), 'pending')
    // Two ahead of it (the running one and the waiting one): ~800 ms, more than 500.
    const refused = queue.enter().admitted
    assert.equal(await state(refused), 'rejected')
    await assert.rejects(refused, (error: unknown) => {
      assert.ok(error instanceof QueueRefusal)
      assert.equal(error.reason, 'queue_full')
      return true
    })
    assert.deepEqual(queue.load.waiting, 1)
  })

  it('refuses a waiter when maxWaitMs passes with no place freed', async () => {
    const queue = new AdmissionQueue({ ...options, concurrency: 1, maxWaitMs: 20 })
    await queue.enter().admitted // never gives its place back
    await assert.rejects(queue.enter().admitted, (error: unknown) => {
      assert.ok(error instanceof QueueRefusal)
      assert.equal(error.reason, 'queue_timeout')
      return true
    })
    assert.equal(queue.load.waiting, 0)
  })

  it('passes a freed place on through the event loop, never in the same turn of it', async () => {
    const queue = new AdmissionQueue({ ...options, concurrency: 1 }, new ManualClock().now)
    const leave = await queue.enter().admitted
    let admitted = false
    const next = queue.enter().admitted.then(() => (admitted = true))
    leave()
    // Every microtask and tick of this turn has run: still waiting, so sockets are read first.
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => process.nextTick(resolve))
    assert.equal(admitted, false)
    await next
  })

  it('takes a request out of the line when its client goes away', async () => {
    const queue = new AdmissionQueue({ ...options, concurrency: 1 }, new ManualClock().now)
    const leave = await queue.enter().admitted
    const gone = queue.enter()
    const next = queue.enter().admitted
    gone.cancel()
    await assert.rejects(gone.admitted, QueueCancelled)
    leave()
    assert.equal(await state(next), 'resolved')
  })
})

/*
 * The API behind the queue, on the test database: one request is held in the middle of its work
 * (test/held-audit-log.ts), so that the next one must wait.
 */
const clock = new ManualClock()
let api: ApiFixture
let adminToken = ''
before(async () => {
  api = await apiFixture({
    authRateLimit: 1_000_000,
    admission: { concurrency: 1, maxWaitMs: 1000, now: clock.now },
    timeouts: { headersMs: 100, requestMs: 200, keepAliveMs: 5000 },
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

const holdAuditLog = () => heldAuditLog(api.database)

describe(`the API under more requests than it serves at once (${testStoreName()})`, () => {
  it('a request that waited too long for its turn gets 503 with Retry-After, and the held one its answer', async () => {
    const hold = await holdAuditLog()
    const running = api.get('/api/audit', adminToken)
    await settle()
    const waiting = api.get('/api/staff', adminToken)
    // A sign-in has a lane of its own: admitted at once, not refused for the reads' queue.
    const signIn = api.post('/api/auth/login', { email: ADMIN.email, password: ADMIN.password })
    await settle()
    clock.at += 1001
    hold.release()
    await hold.done
    assert.equal((await running).statusCode, 200)
    const refused = await waiting
    assert.equal(refused.statusCode, 503)
    assert.equal(refused.headers['retry-after'], '2')
    assert.equal(errorOf(refused).code, 'server_busy')
    assert.equal((await signIn).statusCode, 200)
    // The queue is free again: the next request is served.
    assert.equal((await api.get('/api/staff', adminToken)).statusCode, 200)
  })

  it('a request with a body, queued longer than Node allows for receiving one, gets its answer, never 408', async () => {
    const port = await listenOnFreePort(api.app)
    const hold = await holdAuditLog()
    const running = api.get('/api/audit', adminToken)
    await settle()
    // Sent whole at once, then left waiting in the queue for several times Node's limits
    // (headers 100 ms, request 200 ms, checked every 10 ms).
    const socket = connect(port, '127.0.0.1')
    const body = JSON.stringify({ email: ADMIN.email })
    const answer = new Promise<string>((resolve) => {
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString('latin1')))
      socket.on('close', () => resolve(text))
    })
    socket.write(
      `POST /api/auth/password-recovery HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 600))
    hold.release()
    await hold.done
    assert.equal((await running).statusCode, 200)
    assert.match(await answer, /^HTTP\/1\.1 202 /)
  })

  it('static files and /healthz never wait in the API queue', async () => {
    const hold = await holdAuditLog()
    const running = api.get('/api/audit', adminToken)
    await settle()
    assert.equal((await api.get('/healthz')).statusCode, 200)
    assert.equal((await api.app.inject({ url: '/' })).statusCode, 200)
    hold.release()
    await hold.done
    assert.equal((await running).statusCode, 200)
  })
})
