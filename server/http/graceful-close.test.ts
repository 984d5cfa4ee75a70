import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, it } from 'node:test'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { listenOnFreePort, testApp } from '../test/helpers'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

/** An open connection that collects everything the server sends on it. */
async function openConnection(
  port: number,
): Promise<{ socket: Socket; received: () => string; ended: Promise<void> }> {
  const socket = connect(port, '127.0.0.1')
  let text = ''
  socket.on('data', (chunk) => (text += chunk.toString()))
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  return { socket, received: () => text, ended }
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`

it('on close, finishes the request in flight, answers 503 to a new one, then stops', async () => {
  const { app } = await testApp(dist.distDir)
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  app.get('/slow', async () => {
    await held
    return { done: true }
  })
  const port = await listenOnFreePort(app)

  const inFlight = await openConnection(port)
  inFlight.socket.write(get('/slow'))
  // A client that opened its connection before the shutdown and sends its request during it.
  const late = await openConnection(port)
  await sleep(100)

  const closed = app.close()
  late.socket.write(get('/healthz'))
  await sleep(100)
  assert.match(late.received(), /^HTTP\/1\.1 503 /)
  assert.match(late.received(), /\r\nConnection: close\r\n/i)
  assert.equal(inFlight.received(), '', 'the slow request is still running')

  release()
  const closeStarted = Date.now()
  await Promise.all([closed, inFlight.ended])
  // Its connection ends with its response instead of idling until the keep-alive timeout.
  assert.ok(Date.now() - closeStarted < 2000, `close took ${Date.now() - closeStarted} ms`)
  assert.match(inFlight.received(), /^HTTP\/1\.1 200 /)
  assert.match(inFlight.received(), /\r\nconnection: close\r\n/i)
  assert.match(inFlight.received(), /\{"done":true\}/)

  // After the close, the port no longer accepts connections.
  await assert.rejects(openConnection(port), /ECONNREFUSED/)
  inFlight.socket.destroy()
  late.socket.destroy()
})
