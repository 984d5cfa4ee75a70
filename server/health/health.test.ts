import assert from 'node:assert/strict'
import { after, before, it } from 'node:test'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

it('GET /healthz answers 200 {"status":"ok"}, never cached', async () => {
  const { app } = await testApp(dist.distDir)
  const response = await app.inject({ url: '/healthz' })
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json(), { status: 'ok' })
  assert.match(String(response.headers['content-type']), /^application\/json/)
  assert.equal(response.headers['cache-control'], 'no-store')
  await app.close()
})
