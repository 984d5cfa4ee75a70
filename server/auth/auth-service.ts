import type { FastifyBaseLogger } from 'fastify'
import { recordAccountEvent } from '../audit/account-events'
import type { RequestOrigin } from '../audit/record-audit'
import { normalizeEmail } from '../../common/account-rules'
import type { Db } from '../db/database'
import type { Account, AccountStatus } from '../db/schema'
import type { Mailer } from '../mail/mailer'
import { passwordResetMail } from '../mail/messages'
import {
  createAccount,
  findAccountByEmail,
  findAccountById,
  setPasswordHash,
  setStatus,
} from './accounts'
import { createPasswordReset, RESET_TTL_SECONDS, usePasswordReset } from './password-resets'
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords'
import {
  accountForToken,
  createSession,
  endAllSessions,
  endOtherSessions,
  endSession,
} from './sessions'
import { Throttle } from './throttle'

/** Brute-force limits: failed sign-ins in a 15-minute window, and recovery mails per hour. */
export const LIMITS = {
  failuresPerAccount: 10,
  failuresPerAddress: 50,
  failureWindowSeconds: 15 * 60,
  recoveryMailsPerAccount: 3,
  recoveryWindowSeconds: 60 * 60,
} as const

/** The throttle keys of failed sign-ins: one count per account (by e-mail), one per address. */
export const signInKeys = {
  account: (email: string) => `sign-in:account:${email}`,
  address: (address: string) => `sign-in:address:${address}`,
}

export type SignInResult =
  | { outcome: 'signed-in'; token: string; account: Account }
  | { outcome: 'invalid_credentials' | 'pending_approval' | 'account_disabled' }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

export interface AuthServiceOptions {
  db: Db
  mailer: Mailer
  log: FastifyBaseLogger
  sessionTtlSeconds: number
  /** Links in e-mails start with it (never with the request's Host, which a caller controls). */
  publicUrl: string
  /** Told of each new registration (admins get a mail). */
  onRegistered?: () => void
}

/**
 * Accounts, sessions and password recovery, independent of HTTP (auth-routes.ts maps them to
 * the API). Every answer that could reveal whether an e-mail has an account costs the same and
 * reads the same either way.
 */
export class AuthService {
  private readonly failuresByAccount: Throttle
  private readonly failuresByAddress: Throttle
  private readonly recoveryMails: Throttle

  constructor(private readonly options: AuthServiceOptions) {
    const { db } = options
    this.failuresByAccount = new Throttle(
      db,
      LIMITS.failuresPerAccount,
      LIMITS.failureWindowSeconds,
    )
    this.failuresByAddress = new Throttle(
      db,
      LIMITS.failuresPerAddress,
      LIMITS.failureWindowSeconds,
    )
    this.recoveryMails = new Throttle(
      db,
      LIMITS.recoveryMailsPerAccount,
      LIMITS.recoveryWindowSeconds,
    )
  }

  private get db(): Db {
    return this.options.db
  }

  async signIn(
    rawEmail: string,
    password: string,
    address: string,
    origin?: RequestOrigin,
  ): Promise<SignInResult> {
    const email = normalizeEmail(rawEmail)
    const accountKey = signInKeys.account(email)
    const addressKey = signInKeys.address(address)
    const wait = Math.max(
      await this.failuresByAccount.secondsToWait(accountKey),
      await this.failuresByAddress.secondsToWait(addressKey),
    )
    if (wait > 0) return { outcome: 'too_many_attempts', retryAfterSeconds: wait }

    const account = await findAccountByEmail(this.db, email)
    // The same scrypt work whether or not the account exists.
    const matches = await verifyPassword(password, account?.password_hash ?? (await decoyHash()))
    if (!account || !matches) {
      await this.failuresByAccount.count(accountKey)
      await this.failuresByAddress.count(addressKey)
      await recordAccountEvent(
        this.db,
        'sign_in_failed',
        account?.id,
        origin,
        account ? {} : { email },
      )
      if (account && (await this.failuresByAccount.secondsToWait(accountKey)) > 0)
        await recordAccountEvent(this.db, 'locked', account.id, origin)
      return { outcome: 'invalid_credentials' }
    }
    await this.failuresByAccount.clear(accountKey)
    // Only someone who knows the password learns the account's status.
    if (account.status === 'pending') return { outcome: 'pending_approval' }
    if (account.status === 'disabled') return { outcome: 'account_disabled' }

    if (needsRehash(account.password_hash)) {
      await setPasswordHash(this.db, account.id, await hashPassword(password))
    }
    const token = await createSession(this.db, account.id, this.options.sessionTtlSeconds)
    await recordAccountEvent(this.db, 'sign_in', account.id, origin, { method: 'password' })
    return { outcome: 'signed-in', token, account }
  }

  /** The signed-in account behind a session token, if the session is open and the account active. */
  authenticate(token: string): Promise<Account | undefined> {
    return accountForToken(this.db, token)
  }

  async signOut(token: string, origin?: RequestOrigin): Promise<void> {
    const account = await accountForToken(this.db, token)
    await endSession(this.db, token)
    if (account) await recordAccountEvent(this.db, 'signed_out', account.id, origin)
  }

  /**
   * A new staff account, pending an admin's approval. When the e-mail is taken nothing changes,
   * and the caller cannot tell: the password is hashed either way, so the time is the same.
   */
  async register(
    name: string,
    rawEmail: string,
    password: string,
    origin?: RequestOrigin,
  ): Promise<void> {
    const passwordHash = await hashPassword(password)
    const created = await createAccount(this.db, {
      name: name.trim(),
      email: normalizeEmail(rawEmail),
      passwordHash,
      role: 'staff',
      status: 'pending',
    })
    if (created) {
      await recordAccountEvent(this.db, 'registered', created.id, origin)
      this.options.onRegistered?.()
      this.options.log.info({ accountId: created.id }, 'registration received, pending approval')
    }
  }

  /**
   * Mails a single-use reset link when the e-mail belongs to an account that is not disabled.
   * The mail goes out after the answer, so the answer's time does not depend on the account.
   */
  async requestPasswordRecovery(rawEmail: string, origin?: RequestOrigin): Promise<void> {
    const email = normalizeEmail(rawEmail)
    const account = await findAccountByEmail(this.db, email)
    if (!account || account.status === 'disabled') return
    const key = `recovery-mail:account:${account.id}`
    if ((await this.recoveryMails.secondsToWait(key)) > 0) {
      this.options.log.warn(
        { accountId: account.id },
        'recovery mail not sent: too many asked for this account',
      )
      return
    }
    await this.recoveryMails.count(key)
    const token = await createPasswordReset(this.db, account.id)
    await recordAccountEvent(this.db, 'reset_requested', account.id, origin)
    const link = `${this.options.publicUrl}/#/recuperar-senha?token=${token}`
    const mail = passwordResetMail(account.email, account.name, link, RESET_TTL_SECONDS / 60)
    this.options.mailer.send(mail).then(
      () => this.options.log.info({ accountId: account.id }, 'password recovery mail sent'),
      (error: unknown) =>
        this.options.log.error(
          { err: error, accountId: account.id },
          'password recovery mail failed',
        ),
    )
  }

  /** Sets a new password from a mailed token, and ends every session of that account. */
  async resetPassword(token: string, password: string, origin?: RequestOrigin): Promise<boolean> {
    const passwordHash = await hashPassword(password)
    const accountId = await this.db.transaction().execute(async (trx) => {
      const id = await usePasswordReset(trx, token)
      if (id === undefined) return undefined
      await setPasswordHash(trx, id, passwordHash)
      await endAllSessions(trx, id)
      await recordAccountEvent(trx, 'password_reset', id, origin)
      return id
    })
    if (accountId === undefined) return false
    const account = await findAccountById(this.db, accountId)
    // The owner of the mailbox proved who they are: a lock from someone else's guesses ends.
    if (account) await this.failuresByAccount.clear(signInKeys.account(account.email))
    this.options.log.info({ accountId }, 'password reset; all sessions ended')
    return true
  }

  /** Changes one's own password, knowing the current one; every other session of the account ends. */
  async changePassword(
    account: Account,
    current: string,
    next: string,
    keepToken: string,
    origin?: RequestOrigin,
  ): Promise<boolean> {
    if (!(await verifyPassword(current, account.password_hash))) return false
    const passwordHash = await hashPassword(next)
    await this.db.transaction().execute(async (trx) => {
      await setPasswordHash(trx, account.id, passwordHash)
      await endOtherSessions(trx, account.id, keepToken)
      await recordAccountEvent(trx, 'password_changed', account.id, origin)
    })
    this.options.log.info({ accountId: account.id }, 'password changed; other sessions ended')
    return true
  }

  /** An admin approves or disables an account; disabling also ends its sessions. */
  async changeStatus(
    accountId: string,
    status: Exclude<AccountStatus, 'pending'>,
  ): Promise<Account | undefined> {
    const account = await setStatus(this.db, accountId, status)
    if (account && status === 'disabled') await endAllSessions(this.db, accountId)
    return account
  }
}
