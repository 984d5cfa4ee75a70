import type { FastifyBaseLogger } from 'fastify'
import { isValidEmail, normalizeEmail } from '../../../common/account-rules'
import { nameProblem, normalizeName } from '../../../common/name-rules'
import {
  PASSWORD_PROBLEM_MESSAGES,
  passwordProblem,
  type PasswordContext,
} from '../../../common/password-policy'
import { isInvitationsFirstPassword, recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../audit-log/record-audit'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import type { MfaRequired } from '../../config/config'
import { HttpError } from '../../http/errors'
import type { MailMessage } from '../../mail/mailer'
import { passwordChangedMail, passwordResetMail } from '../../mail/messages'
import { composeQueued, LINK_TOKEN_MARK, type MailOutbox, type OutboxRow } from '../../mail/outbox'
import {
  findAccountByEmail,
  findAccountById,
  registerAccount,
  setPasswordHash,
} from '../../accounts/accounts'
import { isCommonPassword } from '../../accounts/common-passwords'
import {
  issuePasswordReset,
  passwordResetAccount,
  RESET_TTL_SECONDS,
  usePasswordReset,
  voidPasswordResets,
  remintPasswordReset,
} from '../../accounts/password-resets'
import {
  decoyHash,
  hashingQueue,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '../../accounts/passwords'
import {
  createSession,
  endAllSessions,
  endOtherSessions,
  endSession,
  lookUpSession,
  touchSession,
  type SessionLookup,
} from '../../accounts/sessions'
import {
  limitKeys,
  RULES,
  SignInLimits,
  type Attempt,
  type LimitKey,
} from '../../accounts/sign-in-limits'
import type { MfaMethod } from '../../../common/api/auth'
import {
  finishMfaChallenge,
  issueMfaChallenge,
  tryMfaChallenge,
} from '../../accounts/mfa-challenges'
import { mustSetUpSecondFactor } from '../../access/mfa-requirement'
import { mfaMethods, useRecoveryCode, useTotpCode } from '../../accounts/second-factors'
import { looksLikeTotpCode } from '../../accounts/totp'
import { isWellFormedToken, tokenHash } from '../../accounts/tokens'
import { isTrustedDevice, trustDevice } from '../../accounts/trusted-devices'

/** Recovery mails per account and hour (sign-in-limits.ts counts them). */
export const RECOVERY_LIMIT = {
  mailsPerAccount: RULES.recoveryMail.perWindow,
  windowSeconds: RULES.recoveryMail.windowSeconds,
} as const

/** Where a password check comes from: the request's address and the browser's device token. */
export interface Origin {
  address: string
  deviceToken?: string
  /** The address and browser as the audit log keeps them (record-audit.ts). */
  audit?: RequestOrigin
}

export type SignInResult =
  | { outcome: 'signed-in'; token: string; account: Account; deviceToken: string }
  | { outcome: 'mfa'; challenge: string; methods: MfaMethod[] }
  | {
      outcome:
        | 'invalid_credentials'
        | 'pending_approval'
        | 'account_disabled'
        | 'invalid_code'
        | 'challenge_expired'
    }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

export type ChangePasswordResult =
  | { outcome: 'changed' | 'wrong_password' }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

export interface AuthServiceOptions {
  db: Db
  /** Mails are queued in the change's transaction and sent by it (mail/outbox.ts). */
  outbox: MailOutbox
  log: FastifyBaseLogger
  sessionTtlSeconds: number
  /** SESSION_IDLE_TIMEOUT: a session unused this long ends. */
  sessionIdleSeconds: number
  /** The clock of sessions and second factors (tests move it). */
  now?: () => Date
  /** MFA_REQUIRED: who must set up a second factor before using the panel (mfa-requirement.ts). */
  mfaRequired: MfaRequired
  /** Links in e-mails start with it (never with the request's Host, which a caller controls). */
  publicUrl: string
  /** Told of each new registration (admins get a mail). */
  onRegistered?: () => void
}

/** The outbox's kind for a recovery request, composed by the sender. */
const RECOVERY_MAIL = 'password_recovery'

export const invalidInput = (message: string) => new HttpError(400, 'invalid_input', message)

/** The password rules of common/password-policy.ts with the server's list of common passwords. */
function checkNewPassword(password: string, context: PasswordContext): void {
  const problem = passwordProblem(password, context, isCommonPassword)
  if (problem) throw invalidInput(PASSWORD_PROBLEM_MESSAGES[problem])
}

/**
 * Accounts, sessions and password recovery, independent of HTTP (auth-routes.ts maps them to
 * the API). Every answer that could reveal whether an e-mail has an account costs the same and
 * reads the same either way.
 */
export class AuthService {
  readonly limits: SignInLimits
  /** Work done after answering (a registration's follow-up); awaited on close and by tests. */
  private readonly background = new Set<Promise<void>>()

  constructor(private readonly options: AuthServiceOptions) {
    this.limits = new SignInLimits(options.db, () => this.now())
    options.outbox.prepare(RECOVERY_MAIL, (row) => this.composeRecoveryMail(row))
    options.outbox.mintLinksWith(remintPasswordReset)
  }

  get db(): Db {
    return this.options.db
  }

  now(): Date {
    return this.options.now?.() ?? new Date()
  }

  get idleSeconds(): number {
    return this.options.sessionIdleSeconds
  }

  /** Whether this account must set up a second factor before it may do anything else. */
  mustSetUpSecondFactor(account: Account): Promise<boolean> {
    return mustSetUpSecondFactor(this.db, this.options.mfaRequired, account)
  }

  /** PUBLIC_URL: mailed links start with it, and passkeys are made for its host name. */
  get publicUrl(): string {
    return this.options.publicUrl
  }

  /** Opens a session for an account that has proved who it is. */
  async openSession(accountId: string, origin?: RequestOrigin): Promise<string> {
    return createSession(
      this.db,
      accountId,
      this.options.sessionTtlSeconds,
      this.now(),
      origin ?? { ip: null, userAgent: null },
    )
  }

  /**
   * The keys a password check of this account from this origin counts against (a passkey's
   * signature counts against the same ones: passkeys/passkey-sign-in.ts).
   */
  async limitKeysFor(
    email: string,
    account: Account | undefined,
    origin: Origin,
  ): Promise<LimitKey[]> {
    if (
      account &&
      origin.deviceToken !== undefined &&
      (await isTrustedDevice(this.db, origin.deviceToken, account.id))
    ) {
      return [limitKeys.device(tokenHash(origin.deviceToken), email)]
    }
    return [
      limitKeys.accountAndAddress(email, origin.address),
      limitKeys.address(origin.address),
      limitKeys.account(email),
    ]
  }

  /**
   * The password of a signed-in person, asked again before a change that matters (turning the
   * second factor off, new recovery codes): counted like a failed sign-in when wrong, so a
   * stolen session cannot be used to guess it.
   */
  async checkOwnPassword(
    account: Account,
    password: string,
    origin: Origin,
  ): Promise<ChangePasswordResult> {
    const checked = await this.checkPassword(account.email, account, password, origin)
    if ('retryAfterSeconds' in checked) {
      return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
    }
    if (!checked.matches) {
      await recordAccountEvent(this.db, 'sign_in_failed', account.id, origin.audit, {
        method: 'password',
        during: 'confirmation',
      })
      return { outcome: 'wrong_password' }
    }
    return { outcome: 'changed' }
  }

  /**
   * Opens the session of a sign-in that is complete: device trusted, audited with the method.
   * Every way of signing in ends here (passkeys/passkey-sign-in.ts too).
   */
  async completeSignIn(
    account: Account,
    origin: Origin,
    method: 'password' | MfaMethod,
  ): Promise<SignInResult> {
    const token = await this.openSession(account.id, origin.audit)
    const deviceToken = await trustDevice(this.db, account.id, origin.deviceToken)
    await recordAccountEvent(this.db, 'sign_in', account.id, origin.audit, { method })
    return { outcome: 'signed-in', token, account, deviceToken }
  }

  /**
   * The second step of a sign-in with a second factor: a TOTP code or a recovery code for the
   * challenge the password step gave. Each try counts against the challenge (5) and against the
   * same sign-in limits as a password, from the same device or address.
   */
  async signInWithCode(challenge: string, code: string, origin: Origin): Promise<SignInResult> {
    const now = this.now()
    const accountId = await tryMfaChallenge(this.db, challenge, now)
    const account = accountId === undefined ? undefined : await findAccountById(this.db, accountId)
    if (!account) return { outcome: 'challenge_expired' }
    const gate = await this.limits.gate(await this.limitKeysFor(account.email, account, origin))
    if (!gate.allowed) {
      return { outcome: 'too_many_attempts', retryAfterSeconds: gate.retryAfterSeconds }
    }
    const typed = code.trim()
    const method: MfaMethod = looksLikeTotpCode(typed) ? 'totp' : 'recovery_code'
    let left: number | null = null
    const right =
      method === 'totp'
        ? await useTotpCode(this.db, account.id, typed, now)
        : (left = await useRecoveryCode(this.db, account.id, typed, now)) !== null
    if (!right) {
      await recordAccountEvent(this.db, 'sign_in_failed', account.id, origin.audit, { method })
      if (await this.limits.isLocked(account.email))
        await recordAccountEvent(this.db, 'locked', account.id, origin.audit)
      return { outcome: 'invalid_code' }
    }
    await gate.attempt.succeeded()
    if (!(await finishMfaChallenge(this.db, challenge, now)))
      return { outcome: 'challenge_expired' }
    if (account.status !== 'active') return { outcome: 'account_disabled' }
    if (method === 'recovery_code') {
      await recordAccountEvent(this.db, 'recovery_code_used', account.id, origin.audit, { left })
    }
    return this.completeSignIn(account, origin, method)
  }

  /**
   * Whether the password is the account's, counted before it is checked (sign-in-limits.ts).
   * Unknown e-mails are counted and checked against a decoy the same way, so neither the answer
   * nor its time tells whether an account exists.
   */
  private async checkPassword(
    email: string,
    account: Account | undefined,
    password: string,
    origin: Origin,
    whenRight: 'clear' | 'caller-decides' = 'clear',
  ): Promise<{ matches: boolean; attempt: Attempt } | { retryAfterSeconds: number }> {
    // A check the hashing queue would refuse anyway is refused before any try is counted: six
    // writes for nothing, on the event loop, were most of a sign-in flood's cost.
    hashingQueue.refuseWhenFull()
    const gate = await this.limits.gate(await this.limitKeysFor(email, account, origin))
    if (!gate.allowed) return { retryAfterSeconds: gate.retryAfterSeconds }
    let matches: boolean
    try {
      matches = await verifyPassword(password, account?.password_hash ?? (await decoyHash()))
    } catch (error) {
      await gate.attempt.abandoned()
      throw error
    }
    if (account && matches && whenRight === 'clear') await gate.attempt.succeeded()
    return { matches: account !== undefined && matches, attempt: gate.attempt }
  }

  async signIn(rawEmail: string, password: string, origin: Origin): Promise<SignInResult> {
    const email = normalizeEmail(rawEmail)
    const account = await findAccountByEmail(this.db, email)
    const checked = await this.checkPassword(email, account, password, origin, 'caller-decides')
    if ('retryAfterSeconds' in checked) {
      return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
    }
    if (!account || !checked.matches) {
      await recordAccountEvent(
        this.db,
        'sign_in_failed',
        account?.id,
        origin.audit,
        account ? {} : { email },
      )
      if (account && (await this.limits.isLocked(email)))
        await recordAccountEvent(this.db, 'locked', account.id, origin.audit)
      return { outcome: 'invalid_credentials' }
    }
    const methods = await mfaMethods(this.db, account.id)
    // A right password is only the first of two steps: its own try is given back, but the
    // failures counted so far (second-factor codes among them) stay until a sign-in completes.
    // Clearing them here let one address guess 5 codes a minute, password, 5 codes, ...
    if (methods.length > 0 && account.status === 'active') await checked.attempt.abandoned()
    else await checked.attempt.succeeded()
    // Only someone who knows the password learns the account's status.
    if (account.status === 'pending') return { outcome: 'pending_approval' }
    if (account.status === 'disabled') return { outcome: 'account_disabled' }

    if (needsRehash(account.password_hash)) {
      await setPasswordHash(this.db, account.id, await hashPassword(password))
    }
    if (methods.length > 0) {
      return {
        outcome: 'mfa',
        challenge: await issueMfaChallenge(this.db, account.id, this.now()),
        methods,
      }
    }
    return this.completeSignIn(account, origin, 'password')
  }

  /**
   * The session behind a token and its account, if the session is open and the account active
   * (else why not); an open session's idle end slides (common/session-idle.ts) unless the
   * call is not the person's doing (`slide: false`: the panel's own background polling).
   */
  async authenticate(token: string, slide = true): Promise<SessionLookup> {
    const now = this.now()
    const found = await lookUpSession(this.db, token, this.idleSeconds, now)
    if (found.open && slide) {
      found.session.last_seen_at = await touchSession(this.db, found.session, this.idleSeconds, now)
    }
    return found
  }

  async signOut(token: string, origin?: RequestOrigin): Promise<void> {
    const found = await lookUpSession(this.db, token, this.idleSeconds, this.now())
    await endSession(this.db, token)
    if (found.open) await recordAccountEvent(this.db, 'signed_out', found.account.id, origin)
  }

  /**
   * A new staff account, pending an admin's approval. When the e-mail is taken nothing changes,
   * and the caller cannot tell: the rules and the hash run before the answer either way, and
   * the write, whose time depends on the e-mail, after it.
   */
  async register(
    rawName: string,
    rawEmail: string,
    password: string,
    origin?: RequestOrigin,
  ): Promise<void> {
    const problem = nameProblem(rawName)
    if (problem) throw invalidInput(problem)
    if (!isValidEmail(rawEmail)) throw invalidInput('Informe um e-mail válido.')
    const name = normalizeName(rawName)
    const email = normalizeEmail(rawEmail)
    checkNewPassword(password, { email, name })
    const passwordHash = await hashPassword(password)
    // Written before the answer, so an acknowledged registration survives a crash; the same
    // write whether or not the e-mail is taken (registerAccount), so the answer's time says
    // nothing about it. What only concerns a new account (its audit event, the admins' mail,
    // the log line) comes after.
    const created = await registerAccount(this.db, { name, email, passwordHash })
    if (created) {
      this.afterAnswer('registration follow-up failed', async () => {
        await recordAccountEvent(this.db, 'registered', created.id, origin)
        this.options.onRegistered?.()
        this.options.log.info({ accountId: created.id }, 'registration received, pending approval')
      })
    }
  }

  /**
   * Mails a single-use reset link when the e-mail belongs to an account that is not disabled.
   * The request only queues the e-mail (one insert, the same whether or not it has an account),
   * so neither the answer nor the work around it depends on the account; the outbox's sender
   * decides, a random moment later, whether there is a mail to compose (composeRecoveryMail).
   * Written before the answer: an acknowledged request survives a crash.
   */
  async requestPasswordRecovery(rawEmail: string, origin?: RequestOrigin): Promise<void> {
    if (!isValidEmail(rawEmail)) throw invalidInput('Informe um e-mail válido.')
    const email = normalizeEmail(rawEmail)
    const request: RequestOrigin = origin ?? { ip: null, userAgent: null }
    await this.options.outbox.queueRequest(this.db, RECOVERY_MAIL, email, request)
    this.options.outbox.wake()
  }

  /**
   * The outbox's composer of a recovery request: a reset link for an account that is not
   * disabled, issued, audited and written into the row in one transaction; none (null) else.
   */
  private async composeRecoveryMail(row: OutboxRow): Promise<MailMessage | null> {
    const account = await findAccountByEmail(this.db, row.recipient)
    if (!account || account.status === 'disabled') return null
    // Counted and checked in one atomic write: concurrent requests cannot all slip under it.
    if (!(await this.limits.gate([limitKeys.recoveryMail(account.email)])).allowed) {
      this.options.log.warn(
        { accountId: account.id },
        'recovery mail not sent: too many asked for this account',
      )
      return null
    }
    const origin = JSON.parse(row.request ?? 'null') as RequestOrigin | null
    return this.db.transaction().execute(async (trx) => {
      const token = await issuePasswordReset(trx, account.id)
      await recordAccountEvent(trx, 'reset_requested', account.id, origin ?? undefined)
      const link = `${this.options.publicUrl}/#/recuperar-senha?token=${LINK_TOKEN_MARK}`
      const mail = passwordResetMail(account.email, account.name, link, RESET_TTL_SECONDS / 60)
      await composeQueued(trx, row.id, mail, { tokenHash: tokenHash(token) })
      return mail
    })
  }

  /** Queued in the change's transaction: the owner is told of every change that commits. */
  private async queuePasswordChangedMail(
    trx: Db,
    account: Account,
    through: 'account' | 'reset',
    origin: RequestOrigin | undefined,
  ): Promise<void> {
    const recoveryUrl = `${this.options.publicUrl}/#/recuperar-senha`
    const mail = passwordChangedMail(account.email, account.name, {
      through,
      address: origin?.ip ?? null,
      recoveryUrl,
    })
    await this.options.outbox.queue(trx, 'password_changed', mail)
  }

  private afterAnswer(failure: string, work: () => Promise<void>): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.options.log.error({ err: error }, failure))
      .finally(() => this.background.delete(task))
    this.background.add(task)
  }

  /** Resolves when the work started after earlier answers has finished. */
  async settled(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background])
  }

  /** Whether a mailed reset link would still set a password, without using it up. */
  async isUsableResetLink(token: string): Promise<boolean> {
    return isWellFormedToken(token) && (await passwordResetAccount(this.db, token)) !== undefined
  }

  /**
   * Sets a new password from a mailed token, ends every session of that account and voids its
   * other links. False when the token is unknown, used or expired.
   */
  async resetPassword(token: string, password: string, origin?: RequestOrigin): Promise<boolean> {
    // What needs no account first: a short password is a 400 whatever the link.
    checkNewPassword(password, {})
    const pendingId = await passwordResetAccount(this.db, token)
    const pending = pendingId === undefined ? undefined : await findAccountById(this.db, pendingId)
    if (!pending) return false
    checkNewPassword(password, { email: pending.email, name: pending.name })
    if (await verifyPassword(password, pending.password_hash)) {
      throw invalidInput(PASSWORD_PROBLEM_MESSAGES.same_as_current)
    }
    const passwordHash = await hashPassword(password)
    const done = await this.db.transaction().execute(async (trx) => {
      const id = await usePasswordReset(trx, token)
      if (id === undefined) return undefined
      const firstOfInvitation = await isInvitationsFirstPassword(trx, id)
      await setPasswordHash(trx, id, passwordHash)
      await endAllSessions(trx, id, 'session_password_changed')
      await voidPasswordResets(trx, id)
      await recordAccountEvent(trx, 'password_reset', id, origin)
      if (!firstOfInvitation) await this.queuePasswordChangedMail(trx, pending, 'reset', origin)
      return { id, firstOfInvitation }
    })
    if (done === undefined) return false
    const accountId = done.id
    this.options.outbox.wake()
    // The owner of the mailbox proved who they are: waits from someone else's guesses end.
    await this.limits.unlock(pending.email)
    this.options.log.info({ accountId }, 'password reset; all sessions ended')
    return true
  }

  /**
   * Changes one's own password, knowing the current one; every other session of the account
   * ends and its reset links are voided. A wrong current password counts like a failed sign-in,
   * so a stolen session cannot be used to guess the password.
   */
  async changePassword(
    account: Account,
    current: string,
    next: string,
    keepToken: string,
    origin: Origin,
  ): Promise<ChangePasswordResult> {
    checkNewPassword(next, { email: account.email, name: account.name, current })
    const checked = await this.checkPassword(account.email, account, current, origin)
    if ('retryAfterSeconds' in checked) {
      return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
    }
    if (!checked.matches) return { outcome: 'wrong_password' }
    const passwordHash = await hashPassword(next)
    await this.db.transaction().execute(async (trx) => {
      await setPasswordHash(trx, account.id, passwordHash)
      await endOtherSessions(trx, account.id, keepToken, 'session_password_changed')
      await voidPasswordResets(trx, account.id)
      await recordAccountEvent(trx, 'password_changed', account.id, origin.audit)
      await this.queuePasswordChangedMail(trx, account, 'account', origin.audit)
    })
    this.options.outbox.wake()
    this.options.log.info({ accountId: account.id }, 'password changed; other sessions ended')
    return { outcome: 'changed' }
  }
}
