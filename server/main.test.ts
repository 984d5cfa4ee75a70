import assert from 'node:assert/strict'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { compiledServerFixture, startServer, type ServerProcess } from './test/compiled-server'
import { until } from './test/helpers'

/**
 * The compiled server as a process, started the way the Dockerfile's CMD starts it
 * (`node dist/server/main.js`): signals, exit codes and start-up errors are only real there.
 */

const fixture = compiledServerFixture('main')

const start = (env: Record<string, string>) =>
  startServer(fixture.dist, { DATA_DIR: fixture.dataDir, ...env })

/** Waits until the server listens; from then on it must be ready at once (no warm-up 503s). */
async function ready(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) assert.fail(`the server exited: ${server.output()}`)
    let listening = false
    try {
      listening = (await fetch(`http://127.0.0.1:${server.port}/healthz`)).ok
    } catch {
      // not listening yet
    }
    if (listening) {
      const readiness = await fetch(`http://127.0.0.1:${server.port}/readyz`)
      assert.equal(readiness.status, 200, `not ready right after listening: ${server.output()}`)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.fail(`the server did not get ready: ${server.output()}`)
}

describe('the compiled server, run as the container runs it', () => {
  it('on SIGTERM, finishes the request in flight, refuses new connections, and exits 0', async () => {
    const server = start({ LOG_LEVEL: 'info' })
    await ready(server)

    // A slow client: the headers now, the body only after the signal.
    const body = JSON.stringify({ email: 'ninguem@example.com', password: 'senha-qualquer' })
    const socket = connect(server.port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    await once(socket, 'connect')
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 200))

    server.child.kill('SIGTERM')
    // Waits on the server, not on a guess of its pace: the signal handled, then the listener
    // closed (a connection may still be taken between the two).
    await until(() => /shutting down: finishing requests in flight/.test(server.output()))
    let refusal: Error | undefined
    while (!refusal) {
      refusal = await new Promise<Error | undefined>((resolve) => {
        const probe = connect(server.port, '127.0.0.1')
        probe.on('connect', () => probe.destroy()).on('close', () => resolve(undefined))
        probe.on('error', resolve)
      })
    }
    assert.match(refusal.message, /ECONNREFUSED/, 'no new connection once shutting down')
    assert.equal(server.child.exitCode, null, 'still running: a request is in flight')

    // write, not end: an HTTP client that half-closes its socket has its request aborted by Node.
    socket.write(body.slice(10))
    const [code] = (await once(server.child, 'exit')) as [number | null]
    assert.match(answer, /^HTTP\/1\.1 401 /, 'the request in flight got its answer')
    assert.match(answer, /invalid_credentials/)
    assert.equal(code, 0)
    assert.match(server.output(), /shutting down: finishing requests in flight/)
  })

  // On a DATA_DIR with no database, main.ts hashes ADMIN_PASSWORD while the server loads; how long
  // that saves is the start-up bench's to show (docs/performance.md), this that the hash is right.
  it('signs its first admin in with ADMIN_PASSWORD after a first start and after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'painel-main-first-admin-'))
    const env = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'dona@example.com',
      ADMIN_PASSWORD: 'senha-da-dona-1',
    }
    const signIn = (server: ServerProcess, password: string) =>
      fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'dona@example.com', password }),
      })
    let server: ServerProcess | undefined
    try {
      for (const start of ['first start', 'restart']) {
        server = startServer(fixture.dist, env)
        await ready(server)
        assert.equal((await signIn(server, 'senha-da-dona-1')).status, 200, start)
        assert.equal((await signIn(server, 'senha-errada-1')).status, 401, start)
        server.child.kill('SIGTERM')
        assert.equal(await server.exited(), 0)
      }
    } finally {
      // A failed assertion leaves the server running: stopped before its DATA_DIR goes.
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL')
        await server.exited()
      }
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('refuses to start on a bad setting, naming it, with exit code 78 and no stack trace', async () => {
    const server = start({ PORT: 'oito mil', LOG_LEVEL: 'loud', SESSION_TTL: 'forever' })
    const [code] = (await once(server.child, 'exit')) as [number | null]
    assert.equal(code, 78)
    const output = server.output()
    assert.match(output, /^painel: Invalid configuration:/)
    assert.match(output, /PORT="oito mil" is not a port/)
    assert.match(output, /LOG_LEVEL="loud" is not one of/)
    assert.match(output, /SESSION_TTL="forever" is not a duration/)
    assert.doesNotMatch(output, /\n\s+at /)
  })
})
