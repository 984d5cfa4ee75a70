import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, it } from 'node:test'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { heldRoute, holdEventLoop, listenOnFreePort, testApp } from '../test/helpers'
import { securityHeaders } from './security'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

/** An open connection that collects everything the server sends on it, and how it ended. */
async function openConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  let text = ''
  let reset = false
  socket.on('data', (chunk) => (text += chunk.toString()))
  socket.on('error', () => (reset = true))
  const ended = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())))
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  /** Resolves once what was received matches: a wait on the answer, not on a guess of its time. */
  const receives = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!pattern.test(text)) return
        socket.off('data', check)
        resolve()
      }
      socket.on('data', check)
      check()
    })
  return { socket, received: () => text, receives, wasReset: () => reset, ended }
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`

it('on close: the request in flight finishes with Connection: close; a new one gets 503, Retry-After, the standard shape', async () => {
  const { app } = await testApp(dist.distDir, { drain: { graceMs: 5000, idleCloseMs: 200 } })
  const slow = heldRoute(app, '/slow')
  const port = await listenOnFreePort(app)

  const inFlight = await openConnection(port)
  inFlight.socket.write(get('/slow'))
  const late = await openConnection(port)
  await slow.arrived

  const closed = app.close()
  await sleep(20)
  late.socket.write(get('/healthz'))
  await late.ended
  const [head = '', body = ''] = late.received().split('\r\n\r\n')
  assert.match(head, /^HTTP\/1\.1 503 /)
  assert.match(head, /\r\nconnection: close\r\n/i)
  assert.match(head, /\r\nretry-after: 5\r\n/i)
  assert.match(head, /\r\nx-request-id: [0-9a-f-]{36}\r\n/i)
  for (const [name, value] of Object.entries(securityHeaders(false))) {
    assert.ok(head.toLowerCase().includes(`\r\n${name}: ${value.toLowerCase()}`), name)
  }
  assert.deepEqual(JSON.parse(body), {
    error: {
      code: 'service_unavailable',
      message: 'O servidor está sendo reiniciado. Tente novamente em alguns segundos.',
    },
  })
  assert.equal(inFlight.received(), '', 'the slow request is still running')

  slow.release()
  await Promise.all([closed, inFlight.ended])
  assert.match(inFlight.received(), /^HTTP\/1\.1 200 /)
  assert.match(inFlight.received(), /\r\nconnection: close\r\n/i)
  assert.match(inFlight.received(), /\{"done":true\}/)
  assert.equal(inFlight.wasReset() || late.wasReset(), false)
  await assert.rejects(openConnection(port), /ECONNREFUSED/)
})

it('on close: an idle keep-alive connection is closed within idleCloseMs, cleanly (no reset)', async () => {
  const { app } = await testApp(dist.distDir, { drain: { graceMs: 5000, idleCloseMs: 150 } })
  const port = await listenOnFreePort(app)
  const idle = await openConnection(port)
  idle.socket.write(get('/healthz'))
  await idle.receives(/\r\n\r\n\{.*\}$/s)
  assert.match(idle.received(), /^HTTP\/1\.1 200 [\s\S]*keep-alive/i)

  const started = Date.now()
  const closed = app.close()
  const endedAt = await idle.ended
  await closed
  // The bound tells the idle close (150 ms) from the keep-alive's end (72 s) on any machine.
  assert.ok(
    endedAt - started < 30_000,
    `closed after ${endedAt - started} ms, not the 72 s keep-alive`,
  )
  assert.equal(idle.wasReset(), false)
})

it('on close: a request that arrived while the server was busy is answered 503, not cut by the idle close', async () => {
  const { app } = await testApp(dist.distDir, { drain: { graceMs: 5000, idleCloseMs: 50 } })
  const port = await listenOnFreePort(app)
  const client = await openConnection(port)
  client.socket.write(get('/healthz'))
  await client.receives(/\r\n\r\n\{.*\}$/s)
  assert.match(client.received(), /^HTTP\/1\.1 200 [\s\S]*keep-alive/i)

  const closed = app.close()
  // The drain has begun once the listener is closed; its idle close is due in 50 ms.
  while (app.server.listening) await new Promise((resolve) => setImmediate(resolve))
  // The client's next request is on the server's socket, but the server is busy (a loaded
  // machine) past the idle close: when it looks again, the timer and the request are both due.
  client.socket.write(get('/healthz'))
  holdEventLoop(150)
  await client.ended
  await closed
  const second = client.received().split(/(?=HTTP\/1\.1 )/)[1] ?? ''
  assert.match(second, /^HTTP\/1\.1 503 [\s\S]*connection: close/i, client.received())
  assert.equal(client.wasReset(), false)
})

it('on close: a request that outlives the grace period is cut, and the close completes', async () => {
  const { app } = await testApp(dist.distDir, { drain: { graceMs: 300, idleCloseMs: 50 } })
  const never = heldRoute(app, '/never') // never released
  const port = await listenOnFreePort(app)
  const stuck = await openConnection(port)
  stuck.socket.write(get('/never'))
  await never.arrived
  const started = Date.now()
  await app.close()
  await stuck.ended
  const took = Date.now() - started
  // Not before the grace period (300 ms), and well before anything else would end it.
  assert.ok(took >= 280 && took < 30_000, `close took ${took} ms`)
})
