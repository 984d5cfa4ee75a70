import assert from 'node:assert/strict'
import { after, before, it } from 'node:test'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

it('logs one JSON line per request, with the request id, status and time', async () => {
  const { app, logLines } = await testApp(dist.distDir, { logLevel: 'info' })
  await app.inject({ url: '/healthz?x=1', headers: { 'user-agent': 'probe/1.0' } })
  await app.inject({ url: dist.script.url })
  const completed = logLines().filter((line) => line.msg === 'request completed')
  assert.equal(completed.length, 1, 'the health check logs at warn level only')
  const [line] = completed
  assert.equal(line?.url, dist.script.url)
  assert.equal(line?.statusCode, 200)
  assert.equal(typeof line?.responseTime, 'number')
  assert.equal(typeof line?.reqId, 'string')
  await app.close()
})

it('never writes credentials, even at debug level where headers are logged', async () => {
  const { app, logLines } = await testApp(dist.distDir, { logLevel: 'debug' })
  await app.inject({
    url: '/',
    headers: {
      authorization: 'Bearer super-secret-token',
      cookie: 'session=super-secret-cookie',
      'proxy-authorization': 'Basic c2VjcmV0',
      'user-agent': 'probe/1.0',
    },
  })
  const lines = logLines()
  const incoming = lines.find((line) => line.msg === 'incoming request') as
    { req: { headers: Record<string, string> } } | undefined
  assert.ok(incoming, 'the debug line with the request is there')
  assert.equal(incoming.req.headers.authorization, '[redacted]')
  assert.equal(incoming.req.headers.cookie, '[redacted]')
  assert.equal(incoming.req.headers['proxy-authorization'], '[redacted]')
  // Nor the person's browser (docs/personal-data.md, "The server's log").
  assert.equal(incoming.req.headers['user-agent'], '[redacted]')
  const everything = JSON.stringify(lines)
  assert.doesNotMatch(everything, /super-secret|c2VjcmV0|probe\/1\.0/)
  await app.close()
})
