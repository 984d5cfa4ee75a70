import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { FastifyBaseLogger } from 'fastify'
import { Refusals } from './refusals'

/** A logger that keeps what it is given, by level. */
function recordingLog() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = []
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message })
    }
  const log = { warn: at('warn'), info: at('info') } as unknown as FastifyBaseLogger
  return { log, lines }
}

describe('the refusals log', () => {
  it('says the first refusal at once, then sums up the rest, then says when it stopped', () => {
    const { log, lines } = recordingLog()
    const counted: string[] = []
    const refusals = new Refusals(() => log, 60_000)
    refusals.onRefusal((reason) => counted.push(reason))
    try {
      refusals.count('queue_full')
      assert.deepEqual(
        lines.map((line) => [line.level, line.fields.refusal]),
        [['warn', 'queue_full']],
      )
      refusals.count('queue_full')
      refusals.count('request_timeout')
      refusals.count('queue_full')
      assert.equal(lines.length, 1, 'no line per refusal')
      refusals.summarise()
      assert.equal(lines[1]?.level, 'warn')
      assert.deepEqual(lines[1]?.fields, { refused: { queue_full: 2, request_timeout: 1 } })
      assert.match(lines[1]?.message ?? '', /^refused 3 more request\(s\): 2 503.*, 1 408/)
      refusals.summarise() // a whole interval without one
      assert.equal(lines[2]?.level, 'info')
      assert.equal(lines[2]?.fields.refused, 4)
      assert.match(lines[2]?.message ?? '', /^no longer refusing requests/)
      // The next refusal starts a new episode: logged at once again.
      refusals.count('event_loop')
      assert.deepEqual([lines[3]?.level, lines[3]?.fields.refusal], ['warn', 'event_loop'])
      assert.deepEqual(counted, [
        'queue_full',
        'queue_full',
        'request_timeout',
        'queue_full',
        'event_loop',
      ])
    } finally {
      refusals.stop()
    }
  })
})
