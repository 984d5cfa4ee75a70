import assert from 'node:assert/strict'
import { after, before, it } from 'node:test'
import { createAccount } from '../../accounts/accounts'
import { hashPassword } from '../../accounts/passwords'
import { freePortSync } from '../../../scripts/free-port'
import { listenOnFreePort } from '../../test/helpers'
import { SmtpCatcher } from '../../test/smtp-catcher'
import { apiFixture, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'

/**
 * Recovery answers in the same time for any e-mail (answer-timing.test.ts); this is about the
 * request after it. Work the recovery leaves on the event loop (composing and sending the mail)
 * would slow the next request only when the e-mail has an account. Rounds of (a recovery request
 * for an e-mail with or without an account, at random, then at once GET /healthz): the best
 * one-threshold guess of which it was from the follow-up's time must do no better than chance,
 * give or take what chance itself gives the best of many thresholds.
 */

const ROUNDS = 600
/** Accounts taken in turn, so that the recovery-mail limit (3 an hour) does not cut the work. */
const ACCOUNTS = 200

let api: ApiFixture
let catcher: SmtpCatcher
before(async () => {
  // Mail through real SMTP (nodemailer to a catcher on loopback): composing and sending it is
  // the work that, done right after the answer, slowed the next request.
  catcher = new SmtpCatcher(freePortSync())
  await catcher.start()
  api = await apiFixture({
    authRateLimit: 1_000_000,
    logLevel: 'silent',
    mailer: undefined,
    smtpUrl: catcher.url,
  })
  // One hash for all (a hash costs tens of milliseconds; nobody signs in here).
  const passwordHash = await hashPassword('senha-de-quem-existe')
  for (let i = 0; i < ACCOUNTS; i += 1) {
    const email = `existe${i}@example.com`
    await createAccount(api.database.db, {
      name: `Pessoa ${i}`,
      email,
      passwordHash,
      role: 'staff',
      status: 'active',
    })
  }
})
after(async () => {
  await api.close()
  await catcher.stop()
})

/** The best accuracy of a one-threshold classifier (either direction) over the samples. */
function bestThresholdAccuracy(samples: { time: number; existing: boolean }[]): number {
  const sorted = [...samples].sort((a, b) => a.time - b.time)
  const existing = sorted.filter((sample) => sample.existing).length
  // Threshold below everything: "existing when slower" gets every existing one right.
  let existingAbove = existing
  let unknownBelow = 0
  let best = Math.max(existing, sorted.length - existing)
  for (const sample of sorted) {
    if (sample.existing) existingAbove -= 1
    else unknownBelow += 1
    const right = existingAbove + unknownBelow
    best = Math.max(best, right, sorted.length - right)
  }
  return best / sorted.length
}

it(`the request after a recovery does not tell whether the e-mail has an account (${testStoreName()})`, async (t) => {
  // Over a socket, as a client would: the follow-up waits its turn on the server's event loop.
  const url = `http://127.0.0.1:${await listenOnFreePort(api.app)}`
  const samples: { time: number; existing: boolean }[] = []
  let account = 0
  for (let round = 0; round < ROUNDS; round += 1) {
    const existing = Math.random() < 0.5
    const email = existing
      ? `existe${account++ % ACCOUNTS}@example.com`
      : `ninguem${round}@example.com`
    const answer = await fetch(`${url}/api/auth/password-recovery`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    await answer.arrayBuffer()
    assert.equal(answer.status, 202)
    const started = performance.now()
    const followUp = await fetch(`${url}/healthz`)
    await followUp.arrayBuffer()
    samples.push({ time: performance.now() - started, existing })
    assert.equal(followUp.status, 200)
  }
  const accuracy = bestThresholdAccuracy(samples)
  const median = (kind: boolean) => {
    const times = samples
      .filter((sample) => sample.existing === kind)
      .map((sample) => sample.time)
      .sort((a, b) => a - b)
    return times[Math.floor(times.length / 2)]!.toFixed(2)
  }
  const found = `a threshold on the follow-up's time tells them apart ${(accuracy * 100).toFixed(1)}% of the time (medians: ${median(true)} ms with an account, ${median(false)} ms without)`
  t.diagnostic(found)
  assert.ok(accuracy <= 0.6, found)
})
