import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { MfaRequired } from '../../common/api/auth'
import { createAccount } from '../accounts/accounts'
import { hashPassword } from '../accounts/passwords'
import type { Database } from '../db/database'
import type { AccountStatus, AuditEventsTable, Role } from '../db/schema'
import type { ErrorBody } from '../http/errors'
import type { Mailer, MailMessage } from '../mail/mailer'
import type { MailOutbox } from '../mail/outbox'
import { createFixtureDist, type FixtureDist } from './fixture-dist'
import { testApp } from './helpers'
import { testDatabase } from './test-database'

export const ADMIN = { email: 'chefe@example.com', password: 'senha-do-chefe-1' }
/** The fixture's PUBLIC_URL: passkeys are made for its origin and RP ID. */
export const PUBLIC_URL = 'https://painel.example.com'

/** The `error` of an API answer: its code and its pt-BR message. */
export const errorOf = (response: LightMyRequestResponse): ErrorBody['error'] =>
  response.json<ErrorBody>().error

/** The Authorization header that carries a session token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** An account a test made with person() or account(), and the password it signs in with. */
export interface TestAccount {
  id: string
  email: string
  password: string
  name: string
}

/** What an account made by person() or account() may be other than an active staff member. */
export interface AccountFields {
  name?: string
  role?: Role
  status?: AccountStatus
}

/**
 * How long a test waits for a mail the app sends through its outbox. The wait ends as soon as the
 * mail comes, so the figure only bounds a failure: one second was too short for a loaded two-core
 * CI machine on PostgreSQL (the sender wakes, reads the row, sends, marks it sent). A test that
 * shows a mail is not sent delivers the outbox itself (deliverMail) and reads `sent` instead.
 */
const MAIL_WAIT_MS = 10_000

/** A mailer that keeps what it is given, so a test can read the mail a user would get. */
export class CapturedMail implements Mailer {
  readonly sent: MailMessage[] = []
  private waiting: ((message: MailMessage) => void)[] = []

  async send(message: MailMessage): Promise<void> {
    this.sent.push(message)
    for (const wake of this.waiting.splice(0)) wake(message)
  }

  close(): void {}

  /** The next mail to this address (or one already sent), within MAIL_WAIT_MS. */
  async next(to: string): Promise<MailMessage> {
    return this.first((message) => message.to === to, `no mail to ${to}`)
  }

  /** The first mail to this address with this subject (or one already sent), within MAIL_WAIT_MS. */
  async withSubject(to: string, subject: string): Promise<MailMessage> {
    return this.first(
      (message) => message.to === to && message.subject === subject,
      `no mail "${subject}" to ${to}`,
    )
  }

  /** Every mail sent so far to this address with this subject. */
  sentWith(to: string, subject: string): MailMessage[] {
    return this.sent.filter((message) => message.to === to && message.subject === subject)
  }

  private first(matches: (message: MailMessage) => boolean, missing: string) {
    const already = this.sent.find(matches)
    if (already) return Promise.resolve(already)
    return new Promise<MailMessage>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${missing} within ${MAIL_WAIT_MS} ms`)),
        MAIL_WAIT_MS,
      )
      const wake = (message: MailMessage) => {
        if (!matches(message)) return void this.waiting.push(wake)
        clearTimeout(timer)
        resolve(message)
      }
      this.waiting.push(wake)
    })
  }
}

export interface ApiFixture {
  app: FastifyInstance
  database: Database
  mail: CapturedMail
  /**
   * A sender of the same outbox into `mail`, for code a test calls directly (the app's own
   * sender sends what the API queues): queue with it, then deliverMail().
   */
  outbox: MailOutbox
  /** Sends what is due in the outbox now, without waiting for a sender's wake-up. */
  deliverMail: () => Promise<void>
  dist: FixtureDist
  logLines: () => Record<string, unknown>[]
  /** POST JSON to the API. */
  post: (
    url: string,
    body: unknown,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>
  get: (url: string, token?: string) => Promise<LightMyRequestResponse>
  /** Any call: the session token as a bearer when given; an object body as JSON, a string as it is. */
  call: (
    method: Method,
    url: string,
    token?: string,
    payload?: string | object,
  ) => Promise<LightMyRequestResponse>
  /** Signs in and returns the session token (fails the test when it cannot). */
  signIn: (email: string, password: string, headers?: Record<string, string>) => Promise<string>
  /**
   * The password step of a sign-in that asks for a second factor: the login challenge and the
   * methods offered (fails the test when the password alone signs in, or does not).
   */
  passwordStep: (email: string, password: string) => Promise<MfaRequired['mfa']>
  /** A new account, `<label><n>@example.com`, active staff unless told; not signed in. */
  account: (label: string, fields?: AccountFields) => Promise<TestAccount>
  /** A new account as account() makes it, signed in: its session token too. */
  person: (label: string, fields?: AccountFields) => Promise<TestAccount & { token: string }>
  /** The audit events about an account of one type, oldest first. */
  events: (accountId: string, type: string) => Promise<AuditEventsTable[]>
  /** When the account's one session was last used, as written (the idle end counts from it), in ms. */
  lastSeen: (accountId: string) => Promise<number>
  /** An account straight in the database, in any state. */
  addAccount: (fields: {
    email: string
    password: string
    name?: string
    role?: Role
    status?: AccountStatus
  }) => Promise<string>
  close: () => Promise<void>
}

export async function apiFixture(
  overrides: Parameters<typeof testApp>[1] = {},
): Promise<ApiFixture> {
  const dist = await createFixtureDist()
  // A test may bring its own database (a SQLite file on a small disk, say); it is closed here too.
  const database = overrides.database ?? (await testDatabase())
  const mail = new CapturedMail()
  const { app, logLines } = await testApp(dist.distDir, {
    database,
    mailer: mail,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    publicUrl: PUBLIC_URL,
    logLevel: 'info',
    ...overrides,
  })
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: body as object, headers })
  const call = (method: Method, url: string, token?: string, payload?: string | object) =>
    app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload === undefined ? {} : { payload }),
    })
  const signIn = async (email: string, password: string, headers: Record<string, string> = {}) => {
    const response = await post('/api/auth/login', { email, password }, headers)
    const token = response.statusCode === 200 && response.json<{ token?: string }>().token
    if (!token) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`)
    return token
  }
  let accounts = 0
  const account = async (label: string, { name, role, status }: AccountFields = {}) => {
    accounts += 1
    const made = {
      email: `${label}${accounts}@example.com`,
      password: `senha-de-${label}-${accounts}`,
      name: name ?? `Pessoa ${accounts}`,
    }
    return { id: await fixture.addAccount({ ...made, role, status }), ...made }
  }
  const outbox = app.mailOutbox
  if (!outbox) throw new Error('the app has no mail outbox (API_UPSTREAM?)')
  const fixture: ApiFixture = {
    app,
    database,
    mail,
    outbox,
    deliverMail: () => outbox.drain(),
    dist,
    logLines,
    post,
    get: (url, token) => call('GET', url, token),
    call,
    signIn,
    async passwordStep(email, password) {
      const response = await post('/api/auth/login', { email, password })
      const { mfa } = response.json<Partial<MfaRequired>>()
      if (response.statusCode !== 200 || !mfa)
        throw new Error(`no second step: ${response.statusCode} ${response.body}`)
      return mfa
    },
    account,
    async person(label, fields) {
      const made = await account(label, fields)
      return { ...made, token: await signIn(made.email, made.password) }
    },
    events: (accountId, type) =>
      database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('type', '=', type)
        .orderBy('at')
        .execute(),
    lastSeen: async (accountId) =>
      (
        await database.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).last_seen_at.getTime(),
    async addAccount({
      email,
      password,
      name = 'Pessoa de Teste',
      role = 'staff',
      status = 'active',
    }) {
      const account = await createAccount(database.db, {
        name,
        email,
        passwordHash: await hashPassword(password),
        role,
        status,
      })
      if (!account) throw new Error(`${email} already exists`)
      return account.id
    },
    async close() {
      await app.close()
      await database.close()
      await dist.cleanup()
    },
  }
  return fixture
}
