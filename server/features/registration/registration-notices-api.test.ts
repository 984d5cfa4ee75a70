import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'
import {
  NOTICE_INTERVAL_MS,
  notifyAdminsOfRegistrations,
  registrationNotifier,
} from './registration-notices'

/**
 * The admins' "new registrations" mail is as prompt as docs/administration.md says: the first
 * registration at once, what a burst brings after it in one mail when the minute since the last
 * one ends (a timer set for that moment, not the next tick of the minute's poll). Time is the
 * test's: a clock it moves, and timers it fires by hand.
 */

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ clock: clock.now })
})
after(() => api.close())

/** The admin's mails about registrations, after the outbox has sent all. */
async function adminMails() {
  await api.deliverMail()
  return api.mail.sent.filter((mail) => mail.to === ADMIN.email && /cadastro/.test(mail.subject))
}

async function register(name: string, email: string) {
  const answer = await api.post('/api/auth/register', { name, email, password: `senha-${email}` })
  assert.equal(answer.statusCode, 202, answer.body)
}

/** setTimeout and clearTimeout that only record: the test fires what it wants, when it wants. */
function handTimers() {
  const pending = new Map<number, { run: () => void; delay: number }>()
  let next = 0
  return {
    pending,
    timers: {
      setTimeout: ((run: () => void, delay: number) => {
        next += 1
        pending.set(next, { run, delay })
        return next
      }) as unknown as typeof setTimeout,
      clearTimeout: ((handle: number) => pending.delete(handle)) as typeof clearTimeout,
    },
  }
}

describe(`the admins' new-registrations mail (${testStoreName()})`, () => {
  it('the held-back part of a burst goes when the minute ends, in one mail', async () => {
    assert.equal(NOTICE_INTERVAL_MS, 60_000)
    await register('Primeira Rajada', 'primeira@example.com')
    await api.mail.next(ADMIN.email)
    const afterFirst = (await adminMails()).length

    // The same minute: two more, held back (the app's own notifier runs at each one).
    await register('Segunda Rajada', 'segunda@example.com')
    await register('Terceira Rajada', 'terceira@example.com')
    assert.equal((await adminMails()).length, afterFirst)

    // A notifier like the app's, on timers the test fires: its run sets one for the minute's end.
    const { pending, timers } = handTimers()
    const notifier = registrationNotifier(
      {
        db: api.database.db,
        outbox: api.outbox,
        log: api.app.log,
        config: { publicUrl: PUBLIC_URL },
        now: clock.now,
      },
      timers,
    )
    await notifier.run()
    assert.equal((await adminMails()).length, afterFirst, 'nothing before the minute ends')
    const [[, timer] = []] = [...pending]
    assert.ok(timer, 'a timer for when the held-back mail may go')
    assert.ok(timer.delay > 0 && timer.delay <= NOTICE_INTERVAL_MS, `${timer.delay} ms`)

    clock.advance(timer.delay)
    timer.run()
    await notifier.stop()
    const mails = await adminMails()
    assert.equal(mails.length, afterFirst + 1)
    assert.match(mails.at(-1)!.subject, /2 novos cadastros/)
    assert.match(mails.at(-1)!.text, /Segunda Rajada/)
    assert.match(mails.at(-1)!.text, /Terceira Rajada/)
    assert.doesNotMatch(mails.at(-1)!.text, /Primeira Rajada/)
  })

  it('two runs at once (two replicas) send what waited once, not twice', async () => {
    // A registration held back: the admin was mailed less than a minute ago. (The app's own
    // notifier mails the first after the registration's answer: waited for, not assumed.)
    clock.advance(NOTICE_INTERVAL_MS)
    const earlier = (await adminMails()).length
    await register('Quarta Rajada', 'quarta@example.com')
    for (let tries = 0; (await adminMails()).length === earlier; tries += 1) {
      assert.ok(tries < 500, 'the first registration of the minute is mailed')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await register('Quinta Rajada', 'quinta@example.com')
    const before = (await adminMails()).length

    // The minute ends, and two notifiers run together: both read the admin's old mark before
    // either writes its own.
    clock.advance(NOTICE_INTERVAL_MS)
    const deps = {
      db: api.database.db,
      outbox: api.outbox,
      log: api.app.log,
      config: { publicUrl: PUBLIC_URL },
    }
    await Promise.all([
      notifyAdminsOfRegistrations(deps, clock.now()),
      notifyAdminsOfRegistrations(deps, clock.now()),
    ])
    const mails = await adminMails()
    assert.equal(mails.length, before + 1, mails.map((mail) => mail.subject).join('; '))
    assert.match(mails.at(-1)!.text, /Quinta Rajada/)
  })
})
