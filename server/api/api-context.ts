import type { SessionWatch } from '../accounts/session-watch'
import type { FastifyBaseLogger, onRequestAsyncHookHandler } from 'fastify'
import type { SignInLimits } from '../accounts/sign-in-limits'
import type { Config } from '../config/config'
import type { Db } from '../db/database'
import type { MailOutbox } from '../mail/outbox'
import type { BackgroundWork } from './background-work'

/** The settings the API's use cases read. */
export type ApiConfig = Pick<
  Config,
  | 'publicUrl'
  | 'sessionTtlSeconds'
  | 'sessionIdleSeconds'
  | 'mfaRequired'
  | 'https'
  | 'authProviders'
  | 'passwordSignIn'
  | 'adminEmail'
>

/**
 * What every feature plugin is given (built-in-api.ts makes one for the app), and what its use
 * cases take instead of reaching into one another: the database, the clock, the mail outbox, the
 * log, the settings and the sign-in limits. The audit log is written with the change's own
 * transaction (audit-log/record-audit.ts), so it is a function of the transaction, not a field.
 */
export interface ApiContext {
  db: Db
  /** The clock of sessions and second factors (tests move it). */
  now: () => Date
  /** Mails are queued in the change's transaction and sent by it (mail/outbox.ts). */
  outbox: MailOutbox
  log: FastifyBaseLogger
  config: ApiConfig
  /** The counted password, code and passkey tries (accounts/sign-in-limits.ts). */
  limits: SignInLimits
  /**
   * AUTH_RATE_LIMIT's one burst limiter per address: one count for every call it guards (a
   * limiter per plugin would give each its own count). Used as a guard (access/guarded-routes.ts).
   */
  burstLimit: onRequestAsyncHookHandler
  /**
   * The password meter's own count per address (TYPING_LIMIT_FACTOR × AUTH_RATE_LIMIT a minute):
   * typing a password must not use up what the sign-ins of an office behind one address may ask.
   */
  typingLimit: onRequestAsyncHookHandler
  /** Work done after answering (a registration's follow-up); awaited before the app closes. */
  background: BackgroundWork
  /** The open session streams, told when their session ends (accounts/session-watch.ts). */
  sessionWatch: SessionWatch
}
