import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { createAccount } from '../auth/accounts'
import { hashPassword } from '../auth/passwords'
import type { Database } from '../db/database'
import type { AccountStatus, Role } from '../db/schema'
import type { Mailer, MailMessage } from '../mail/mailer'
import { createFixtureDist, type FixtureDist } from './fixture-dist'
import { testApp } from './helpers'
import { testDatabase } from './test-database'

export const ADMIN = { email: 'chefe@example.com', password: 'senha-do-chefe-1' }

/** A mailer that keeps what it is given, so a test can read the mail a user would get. */
export class CapturedMail implements Mailer {
  readonly sent: MailMessage[] = []
  private waiting: ((message: MailMessage) => void)[] = []

  async send(message: MailMessage): Promise<void> {
    this.sent.push(message)
    for (const wake of this.waiting.splice(0)) wake(message)
  }

  close(): void {}

  /** The next mail to this address (or one already sent), within a second. */
  async next(to: string): Promise<MailMessage> {
    return this.first((message) => message.to === to, `no mail to ${to}`)
  }

  /** The first mail to this address with this subject (or one already sent), within a second. */
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
      const timer = setTimeout(() => reject(new Error(missing)), 1000)
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
  dist: FixtureDist
  logLines: () => Record<string, unknown>[]
  /** POST JSON to the API. */
  post: (
    url: string,
    body: unknown,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>
  get: (url: string, token?: string) => Promise<LightMyRequestResponse>
  /** Signs in and returns the session token (fails the test when it cannot). */
  signIn: (email: string, password: string) => Promise<string>
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
  const database = await testDatabase()
  const mail = new CapturedMail()
  const { app, logLines } = await testApp(dist.distDir, {
    database,
    mailer: mail,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    publicUrl: 'https://painel.example.com',
    logLevel: 'info',
    ...overrides,
  })
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: body as object, headers })
  const get = (url: string, token?: string) =>
    app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} })
  return {
    app,
    database,
    mail,
    dist,
    logLines,
    post,
    get,
    async signIn(email, password) {
      const response = await post('/api/auth/login', { email, password })
      if (response.statusCode !== 200)
        throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`)
      return response.json<{ token: string }>().token
    },
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
}
