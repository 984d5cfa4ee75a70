import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { jsonPieces, memberCount, MEMBERS_PER_PIECE, scimPayload } from './json-in-pieces'

const pieces = async (body: unknown, perPiece?: number) => {
  const all: string[] = []
  for await (const piece of jsonPieces(body, perPiece)) all.push(piece)
  return all
}

const member = fc.record({
  value: fc.uuid(),
  $ref: fc.webUrl(),
  display: fc.string({ unit: 'binary' }),
  type: fc.constant('User'),
})
const group = fc.record(
  {
    schemas: fc.constant(['urn:ietf:params:scim:schemas:core:2.0:Group']),
    id: fc.uuid(),
    externalId: fc.option(fc.string(), { nil: undefined }),
    displayName: fc.string({ unit: 'binary' }),
    members: fc.array(member, { maxLength: 12 }),
    meta: fc.dictionary(fc.string(), fc.jsonValue()),
  },
  { requiredKeys: ['schemas', 'id', 'displayName', 'meta'] },
)

describe('jsonPieces', () => {
  it('writes a Group, a User or a ListResponse as JSON.stringify does, key for key (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          group,
          fc.record({
            schemas: fc.constant(['urn:ietf:params:scim:api:messages:2.0:ListResponse']),
            totalResults: fc.nat(),
            Resources: fc.array(fc.oneof(group, fc.dictionary(fc.string(), fc.jsonValue())), {
              maxLength: 5,
            }),
            startIndex: fc.nat(),
          }),
          fc.dictionary(fc.string(), fc.jsonValue()),
        ),
        fc.integer({ min: 1, max: 4 }),
        async (body, perPiece) => {
          assert.equal((await pieces(body, perPiece)).join(''), JSON.stringify(body))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('gives a piece for every few members, and the loop a turn between two', async () => {
    const members = Array.from({ length: 7 }, (_, n) => ({ value: `m${n}` }))
    const body = { id: 'g', members, meta: { version: 'W/"x"' } }
    const written = await pieces(body, 3)
    assert.equal(written.length, 3)
    assert.equal(written.join(''), JSON.stringify(body))
    // Other work runs between two pieces: without the turn, a reader that takes the pieces as
    // they come would run through them all in one turn.
    let turns = 0
    let reading = true
    const tick = () => {
      if (!reading) return
      turns += 1
      setImmediate(tick)
    }
    setImmediate(tick)
    let count = 0
    for await (const piece of jsonPieces(body, 1)) count += piece.length > 0 ? 1 : 0
    reading = false
    assert.equal(count, 8, 'a piece a member, and the rest')
    assert.ok(turns >= 7, `${turns} turns`)
  })

  it('streams only an answer with more members than a piece holds', () => {
    const many = Array.from({ length: MEMBERS_PER_PIECE + 1 }, (_, n) => ({ value: `m${n}` }))
    assert.equal(memberCount({ members: many }), MEMBERS_PER_PIECE + 1)
    assert.equal(
      memberCount({
        Resources: [{ members: many.slice(0, 2) }, { members: many.slice(0, 3) }, {}],
      }),
      5,
    )
    const small = { members: many.slice(0, MEMBERS_PER_PIECE) }
    assert.equal(scimPayload(small), small)
    assert.equal(typeof (scimPayload({ members: many }) as { pipe?: unknown }).pipe, 'function')
  })
})
