import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { idleSchedule, type SessionLimits } from './idle-schedule'

const MIN = 60_000
const T0 = 1_800_000_000_000
/** A 30-minute timeout, its last use written at T0: it ends 31 minutes later (a minute's slack). */
const limits: SessionLimits = {
  id: 's',
  idleExpiresAt: T0 + 31 * MIN,
  expiresAt: T0 + 12 * 60 * MIN,
  idleTimeoutMs: 30 * MIN,
}

describe('idleSchedule', () => {
  it('warns two minutes before the idle end the server gave, and looks just after it', () => {
    const schedule = idleSchedule(limits, T0)
    assert.equal(schedule.endsAt, T0 + 31 * MIN)
    assert.equal(schedule.warnAt, T0 + 29 * MIN)
    assert.equal(schedule.checkAt, T0 + 31 * MIN + 1000)
    assert.equal(schedule.absoluteFirst, false)
  })

  it('counts a later call: the server may not have written it, so its end is a full timeout after it', () => {
    const schedule = idleSchedule(limits, T0 + 10 * MIN)
    assert.equal(schedule.endsAt, T0 + 40 * MIN)
    assert.equal(schedule.warnAt, T0 + 38 * MIN)
    // Looks only once the session is surely over (the call written, plus its slack): asking
    // earlier would slide it.
    assert.equal(schedule.checkAt, T0 + 41 * MIN + 1000)
  })

  it('ignores a call from before the figures (they already include it)', () => {
    assert.equal(idleSchedule(limits, T0 - 5 * MIN).endsAt, T0 + 31 * MIN)
    assert.equal(idleSchedule(limits, null).endsAt, T0 + 31 * MIN)
  })

  it('does not warn when the absolute end comes first, but looks at it', () => {
    const schedule = idleSchedule({ ...limits, expiresAt: T0 + 20 * MIN }, T0)
    assert.equal(schedule.absoluteFirst, true)
    assert.equal(schedule.warnAt, Number.POSITIVE_INFINITY)
    assert.equal(schedule.checkAt, T0 + 20 * MIN + 1000)
  })

  it('warns half a short timeout before its end, not with every use', () => {
    // 90 s: the server writes use every 9 s, so it ends 99 s after the use it wrote.
    const short = { ...limits, idleExpiresAt: T0 + 99_000, idleTimeoutMs: 90_000 }
    const schedule = idleSchedule(short, T0)
    assert.equal(schedule.warnAt, T0 + 54_000)
    assert.equal(schedule.checkAt, T0 + 100_000)
    const later = idleSchedule(short, T0 + 5_000)
    assert.equal(later.endsAt, T0 + 99_000)
    assert.equal(later.checkAt, T0 + 104_000 + 1000)
  })
})
