import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { apiFixture } from './api-fixture'

/**
 * The server tests' contract check (contract-recorder.ts) itself: an app's /api traffic is held
 * to the app's own OpenAPI document when it closes. It once checked nothing for months: it looked
 * for the document where the app no longer kept it, and returned as if all were well.
 */
describe('the contract check of the server tests', () => {
  /** An app with one more /api route, answering as `body`, asked once, then closed. */
  async function closedAfterAnswering(body: string): Promise<unknown> {
    const fixture = await apiFixture()
    fixture.app.get(
      '/api/contract-probe',
      {
        schema: {
          response: {
            200: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' } },
            },
          },
        },
      },
      // A string is sent as it is, past the response schema's serializer.
      async (_request, reply) => reply.type('application/json').send(body),
    )
    const answer = await fixture.get('/api/contract-probe')
    assert.equal(answer.statusCode, 200)
    try {
      await fixture.app.close()
      return undefined
    } catch (error) {
      return error
    } finally {
      await fixture.database.close()
      await fixture.dist.cleanup()
    }
  }

  it('fails the app’s close on an answer outside its schema, naming the request', async () => {
    const error = await closedAfterAnswering('{"nome":"Ana"}')
    assert.ok(error instanceof Error, 'app.close() rejected')
    assert.match(error.message, /1 answer\(s\) outside the API contract/)
    assert.match(error.message, /must have required property 'name'/)
    assert.match(error.message, /curl -X GET "\$URL\/api\/contract-probe"/)
  })

  it('lets an answer the document describes pass', async () => {
    assert.equal(await closedAfterAnswering('{"name":"Ana"}'), undefined)
  })
})
