import { DEFAULT_SESSION_WATCH, SessionWatch } from '../../accounts/session-watch'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { createAccount } from '../../accounts/accounts'
import { SignInLimits, type GateResult, type LimitKey } from '../../accounts/sign-in-limits'
import type { ApiContext } from '../../api/api-context'
import { BackgroundWork } from '../../api/background-work'
import { loadConfig } from '../../config/config'
import type { Database } from '../../db/database'
import { MailOutbox } from '../../mail/outbox'
import { CapturedMail } from '../../test/api-fixture'
import { testDatabase, testStoreName } from '../../test/test-database'
import { anonymiseAccount } from '../account-deletion/anonymise-account'
import { composeRecoveryMails, requestPasswordRecovery } from './recover-password'

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger
const PERSON = 'quem-sai@example.com'

/**
 * Sign-in limits whose first gate lets something happen just before it counts: the moment the
 * outbox's sender has read the account and not yet written the recovery mail's count.
 */
class LimitsWithAMomentBeforeTheGate extends SignInLimits {
  constructor(
    db: Database['db'],
    private readonly moment: () => Promise<void>,
  ) {
    super(db)
  }

  private taken = false

  override async gate(keys: LimitKey[], now?: Date): Promise<GateResult> {
    if (!this.taken) {
      this.taken = true
      await this.moment()
    }
    return super.gate(keys, now)
  }
}

describe(`a recovery mail composed while its account is anonymised (${testStoreName()})`, () => {
  let database: Database
  before(async () => {
    database = await testDatabase()
  })
  after(() => database.close())

  it('leaves no count nor event that names the gone person, and sends nothing', async () => {
    const { db, engine } = database
    const admin = await createAccount(db, {
      name: 'Chefe',
      email: 'chefe-corrida@example.com',
      passwordHash: 'not used',
      role: 'admin',
      status: 'active',
    })
    const person = await createAccount(db, {
      name: 'Quem Sai',
      email: PERSON,
      passwordHash: 'not used',
      role: 'staff',
      status: 'active',
    })
    assert.ok(admin && person)
    const mailer = new CapturedMail()
    const outbox = new MailOutbox({ db, engine, mailer, log: silent })
    const context: ApiContext = {
      db,
      now: () => new Date(),
      outbox,
      log: silent,
      config: loadConfig({}),
      // The admin's anonymisation commits in that moment, as it could on a busy server.
      limits: new LimitsWithAMomentBeforeTheGate(db, () =>
        anonymiseAccount(context, admin, person.id, { ip: null, userAgent: null }),
      ),
      burstLimit: async () => {},
      typingLimit: async () => {},
      background: new BackgroundWork(silent),
      sessionWatch: new SessionWatch(async () => new Map(), DEFAULT_SESSION_WATCH, silent),
    }
    composeRecoveryMails(context)

    await requestPasswordRecovery(context, PERSON, undefined)
    await outbox.drain()

    assert.equal(
      await db.selectFrom('accounts').where('id', '=', person.id).select('id').executeTakeFirst(),
      undefined,
      'anonymised',
    )
    const kept = await db
      .selectFrom('sign_in_limits')
      .select(['key', 'account'])
      .where((eb) => eb.or([eb('account', '=', PERSON), eb('key', 'like', `%${PERSON}%`)]))
      .execute()
    assert.deepEqual(kept, [])
    assert.deepEqual(mailer.sent, [])
    // Nor an event written after the anonymisation's scrub of the log, with the name and e-mail.
    const named = await db
      .selectFrom('audit_events')
      .select(['type', 'account_email'])
      .where((eb) =>
        eb.or([
          eb('account_email', '=', PERSON),
          eb('account_name', '=', 'Quem Sai'),
          eb('details', 'like', `%${PERSON}%`),
        ]),
      )
      .execute()
    assert.deepEqual(named, [])
  })
})
