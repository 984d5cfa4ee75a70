import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

describe('a failure inside the server', () => {
  it('answers 500 in the standard shape without its cause, which goes to the log with the request id', async () => {
    const { app, logLines } = await testApp(dist.distDir, { logLevel: 'error' })
    app.get('/boom', async () => {
      throw new Error('SECRET-CAUSE: connection string postgres://u:p@db/x')
    })
    const response = await app.inject({ url: '/boom' })
    assert.equal(response.statusCode, 500)
    assert.deepEqual(Object.keys(response.json<{ error: object }>().error).sort(), [
      'code',
      'message',
    ])
    assert.equal(response.json<{ error: { code: string } }>().error.code, 'internal_error')
    assert.doesNotMatch(response.body, /SECRET-CAUSE|postgres:|stack|at /)

    const logged = logLines().find((line) => line.msg === 'request failed')
    assert.ok(logged, 'no "request failed" line')
    assert.equal(logged.reqId, response.headers['x-request-id'])
    assert.match(JSON.stringify(logged.err), /SECRET-CAUSE/)
    await app.close()
  })
})
