import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { tokenHash } from '../accounts/tokens'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { TestClock } from '../test/test-clock'
import { testStoreName } from '../test/test-database'
import type { Mailer, MailMessage } from './mailer'
import { LINK_TOKEN_MARK } from './outbox'

/**
 * Mails with a link (a recovery, an admin's reset link, an invitation) wait in the outbox while
 * SMTP is down. The table must hold no link that works, as password_resets holds only hashes: a
 * backup, or anyone who reads the table meanwhile, could otherwise take over the account. The
 * link gets its token when the mail is sent; a link that stopped working meanwhile is not sent.
 */

class OutageMailer implements Mailer {
  down = true
  readonly sent: MailMessage[] = []
  async send(mail: MailMessage): Promise<void> {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25')
    this.sent.push(mail)
  }
  close(): void {}
}

const TOKEN_IN_LINK = /token=([A-Za-z0-9_-]{16,})/

describe(`links in waiting mail (${testStoreName()})`, () => {
  const clock = new TestClock()
  const smtp = new OutageMailer()
  let api: ApiFixture
  let admin: string
  before(async () => {
    api = await apiFixture({ authRateLimit: 1_000_000, mailer: smtp, clock: clock.now })
    admin = await api.signIn(ADMIN.email, ADMIN.password)
  })
  after(() => api.close())

  const waitingRows = () =>
    api.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('state', '=', 'waiting')
      .where('kind', 'in', ['password_recovery', 'admin_reset', 'invitation'])
      .execute()

  it('are stored without a working token, and sent with one that works', async () => {
    const forgot = await api.account('esqueceu')
    const resetByAdmin = await api.account('redefinida')
    const recovery = await api.post('/api/auth/password-recovery', { email: forgot.email })
    assert.equal(recovery.statusCode, 202)
    const reset = await api.call('POST', `/api/staff/${resetByAdmin.id}/password-reset`, admin)
    assert.equal(reset.statusCode, 202)
    const invited = await api.call('POST', '/api/staff/invitations', admin, {
      name: 'Convidada Agora',
      email: 'convidada-link@example.com',
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201, invited.body)
    await api.deliverMail() // SMTP is down: every attempt fails, and the mails wait

    const rows = await waitingRows()
    assert.equal(rows.length, 3, JSON.stringify(rows.map((row) => row.kind)))
    const liveHashes = new Set(
      (await api.database.db.selectFrom('password_resets').select('token_hash').execute()).map(
        (row) => row.token_hash,
      ),
    )
    for (const row of rows) {
      assert.ok(row.text?.includes(LINK_TOKEN_MARK), `${row.kind}: the link's place is marked`)
      assert.doesNotMatch(`${row.text} ${row.html ?? ''}`, TOKEN_IN_LINK, row.kind)
      const { linkTokenHash } = JSON.parse(row.request ?? '{}') as { linkTokenHash?: string }
      assert.ok(linkTokenHash && liveHashes.has(linkTokenHash), `${row.kind}: a live link's hash`)
    }

    smtp.down = false
    clock.advance(60_000) // past the first retry's wait
    await api.deliverMail()
    assert.equal(smtp.sent.length, 3)
    for (const mail of smtp.sent) {
      const token = TOKEN_IN_LINK.exec(mail.text)?.[1]
      assert.ok(token, `a link in the mail to ${mail.to}`)
      assert.ok(liveHashes.has(tokenHash(token)) === false, 'a token minted at sending')
      const check = await api.post('/api/auth/password-reset/check', { token })
      assert.equal(check.statusCode, 200, `the link mailed to ${mail.to} works`)
    }
    assert.deepEqual(await waitingRows(), [])
  })

  it('is not sent once its link has expired; the row says why', async () => {
    smtp.down = true
    smtp.sent.length = 0
    const someone = await api.account('expira')
    const reset = await api.call('POST', `/api/staff/${someone.id}/password-reset`, admin)
    assert.equal(reset.statusCode, 202)
    await api.deliverMail()
    smtp.down = false
    clock.advanceMinutes(31) // the link lives 30 minutes
    await api.deliverMail()
    assert.deepEqual(smtp.sent, [])
    const row = await api.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', someone.email)
      .executeTakeFirstOrThrow()
    assert.equal(row.state, 'failed')
    assert.match(row.last_error ?? '', /expired/)
  })
})
