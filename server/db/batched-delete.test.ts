import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createSession, pruneSessions } from '../accounts/sessions'
import { pruneSignInLimits } from '../accounts/sign-in-limits'
import { apiFixture, type ApiFixture } from '../test/api-fixture'
import { turnsDuring } from '../test/helpers'
import { testStoreName } from '../test/test-database'
import { DELETE_BATCH, inBatches } from './batched-delete'

describe('inBatches', () => {
  it('runs until a statement touches fewer than a batch, with a turn of the loop between', async () => {
    let left = 2.5 * DELETE_BATCH
    const limits: number[] = []
    let turnsBefore = -1
    const counted = await turnsDuring((turnsSoFar) =>
      inBatches(async (limit) => {
        // Each statement after the first comes after a turn of the loop.
        assert.ok(turnsSoFar() > turnsBefore, 'a turn of the loop before the next statement')
        turnsBefore = turnsSoFar()
        limits.push(limit)
        const removed = Math.min(limit, left)
        left -= removed
        return BigInt(removed)
      }),
    )
    assert.deepEqual(limits, [DELETE_BATCH, DELETE_BATCH, DELETE_BATCH])
    assert.equal(left, 0)
    assert.ok(counted >= 2)
  })
})

describe(`the prunes of a backlog (${testStoreName()})`, () => {
  let api: ApiFixture
  before(async () => {
    api = await apiFixture()
  })
  after(() => api.close())

  it('removes every ended session of a backlog a batch at a time, and keeps the others', async () => {
    const { db } = api.database
    const person = await api.account('sessoes-antigas')
    const longAgo = new Date(Date.now() - 30 * 86_400_000)
    for (let index = 0; index < 2.5 * DELETE_BATCH; index++) {
      await createSession(db, person.id, 3600, longAgo)
    }
    await createSession(db, person.id, 3600)
    const counted = await turnsDuring(() => pruneSessions(db))
    const left = await db
      .selectFrom('sessions')
      .select('expires_at')
      .where('account_id', '=', person.id)
      .execute()
    assert.equal(left.length, 1, 'the live session stays')
    assert.ok(left[0]!.expires_at > new Date())
    assert.ok(counted >= 2, `${counted} turns of the event loop`)
  })

  it('removes every ended count of a spray of failed sign-ins a batch at a time, and keeps the open ones', async () => {
    const { db } = api.database
    const ended = new Date(Date.now() - 60_000)
    const open = new Date(Date.now() + 3_600_000)
    const keys = Array.from(
      { length: 2.5 * DELETE_BATCH },
      (_, index) => `email:spray${index}@example.com`,
    )
    await db
      .insertInto('sign_in_limits')
      .values([
        ...keys.map((key) => ({
          key,
          account: null,
          count: 1,
          window_ends_at: ended,
          blocked_until: ended,
        })),
        {
          key: 'email:aberta@example.com',
          account: null,
          count: 1,
          window_ends_at: open,
          blocked_until: ended,
        },
      ])
      .execute()
    const counted = await turnsDuring(() => pruneSignInLimits(db))
    const left = await db
      .selectFrom('sign_in_limits')
      .select('key')
      .where((eb) =>
        eb.or([eb('key', 'like', 'email:spray%'), eb('key', '=', 'email:aberta@example.com')]),
      )
      .execute()
    assert.deepEqual(
      left.map(({ key }) => key),
      ['email:aberta@example.com'],
    )
    assert.ok(counted >= 2, `${counted} turns of the event loop`)
  })
})
