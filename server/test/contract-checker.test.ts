import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ContractChecker, type Exchange } from './contract-checker'

/** A document with one operation whose answer has a uuid, a date-time, a date and a uri. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'test', version: '1' },
  paths: {
    '/api/thing': {
      get: {
        operationId: 'getThing',
        responses: {
          '200': {
            description: 'the thing',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'at', 'day', 'address'],
                  properties: {
                    id: { type: 'string', format: 'uuid' },
                    at: { type: 'string', format: 'date-time' },
                    day: { type: 'string', format: 'date' },
                    address: { type: 'string', format: 'uri' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
}

const answer = (body: object): Exchange => ({
  method: 'GET',
  url: '/api/thing',
  headers: {},
  body: undefined,
  status: 200,
  responseBody: JSON.stringify(body),
})

describe('ContractChecker', () => {
  it('holds an answer to the formats its schema names (uuid, date-time, date, uri)', async () => {
    const checker = await ContractChecker.create(DOCUMENT)
    const good = {
      id: '0b7e2b0e-5d5c-4a43-9a3e-6f1f2b1c9d10',
      at: '2026-11-23T07:28:00.000Z',
      day: '2026-11-23',
      address: 'https://painel.example.com/scim/v2',
    }
    assert.deepEqual(checker.check(answer(good)), [])
    const problems = checker.check(
      answer({ id: '42', at: 'ontem', day: '23/11/2026', address: 'painel/scim/v2' }),
    )
    assert.equal(problems.length, 4, problems.join('\n'))
    for (const field of ['/id', '/at', '/day', '/address']) {
      assert.ok(
        problems.some((problem) => problem.includes(field)),
        `${field}: ${problems.join('\n')}`,
      )
    }
  })
})
