import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { listenOnFreePort, testApp } from '../test/helpers'

let dist: FixtureDist
let upstream: FastifyInstance
let upstreamPort: number

before(async () => {
  dist = await createFixtureDist()
  // A stand-in for an existing backend: it echoes what it received.
  upstream = Fastify()
  upstream.all('/backend-api/*', async (request, reply) =>
    reply.code(request.url.endsWith('/teapot') ? 418 : 200).send({
      method: request.method,
      url: request.url,
      body: request.body ?? null,
      authorization: request.headers.authorization ?? null,
      forwardedFor: request.headers['x-forwarded-for'] ?? null,
      requestId: request.headers['x-request-id'] ?? null,
    }),
  )
  upstreamPort = await listenOnFreePort(upstream)
})
after(async () => {
  await upstream.close()
  await dist.cleanup()
})

describe('API_UPSTREAM', () => {
  it('proxies every /api call there, path, body and credentials included, and starts no database', async () => {
    const { app, logLines } = await testApp(dist.distDir, {
      apiUpstream: `http://127.0.0.1:${upstreamPort}/backend-api`,
      logLevel: 'info',
    })
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login?x=1',
      payload: { email: 'a@b.c', password: 'segredo123' },
      headers: { authorization: 'Bearer abc' },
      remoteAddress: '203.0.113.5',
    })
    assert.equal(response.statusCode, 200)
    const echoed = response.json<Record<string, unknown>>()
    assert.equal(echoed.method, 'POST')
    assert.equal(echoed.url, '/backend-api/auth/login?x=1')
    assert.deepEqual(echoed.body, { email: 'a@b.c', password: 'segredo123' })
    assert.equal(echoed.authorization, 'Bearer abc')
    assert.equal(echoed.forwardedFor, '203.0.113.5')
    assert.equal(typeof echoed.requestId, 'string')

    const teapot = await app.inject({ url: '/api/staff/teapot' })
    assert.equal(teapot.statusCode, 418, "the backend's own status passes through")

    assert.equal(
      logLines().some((line) => /database|ADMIN/.test(String(line.msg))),
      false,
    )
    assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200)
    assert.equal((await app.inject({ url: '/' })).statusCode, 200)
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
    await app.close()
  })

  it('is not ready, and answers API calls with 502 in the standard shape, while the backend is down', async () => {
    const { app } = await testApp(dist.distDir, { apiUpstream: 'http://127.0.0.1:9/api' })
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 503)
    // Over a real socket: inject() cannot stand in for a request body streamed to a dead upstream.
    const port = await listenOnFreePort(app)
    const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.c', password: 'x' }),
    })
    assert.equal(response.status, 502)
    const text = await response.text()
    assert.deepEqual(JSON.parse(text), {
      error: {
        code: 'upstream_unavailable',
        message: 'O serviço de dados não respondeu. Tente novamente em instantes.',
      },
    })
    assert.doesNotMatch(text, /ECONNREFUSED|stack/)
    await app.close()
  })
})
