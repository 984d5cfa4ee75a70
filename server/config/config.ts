import { canonicalEmail, isValidEmail } from '../../common/account-rules'
import {
  passwordLength,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../common/password-policy'
import { readSingleSignOn, type SingleSignOnConfig } from './auth-providers'
import { EnvReader, type Env } from './env-reader'

/**
 * Everything the server reads from its environment, parsed once at start (docs/configuration.md lists it).
 * A bad value stops start-up with a message naming the variable, what it got and what it takes:
 * a typo in a container's env must not turn into a server quietly doing something else.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** MFA_REQUIRED: whose accounts must have a second factor before they can use the panel. */
export const MFA_REQUIRED_VALUES = ['admins', 'all', 'off'] as const
export type MfaRequired = (typeof MFA_REQUIRED_VALUES)[number]

/** Single sign-on's settings (AUTH_PROVIDERS, PASSWORD_SIGN_IN) are in auth-providers.ts. */
export interface Config extends SingleSignOnConfig {
  port: number
  host: string
  logLevel: LogLevel
  /** Served to browsers over HTTPS (directly or by a proxy): HSTS and upgrade-insecure-requests. */
  https: boolean
  /** Proxies whose X-Forwarded-For names the client (logs, request ids, rate limits). */
  trustProxy: boolean | number | string[]
  /** Where the panel is reached from outside: the start of links in e-mails. */
  publicUrl: string
  /** The embedded database's folder (when DATABASE_URL is unset). */
  dataDir: string
  /** A PostgreSQL server (postgres://…); null: the embedded one (SQLite) in dataDir. */
  databaseUrl: string | null
  /** Outgoing mail (smtp:// or smtps://); null: messages are written to the log instead. */
  smtpUrl: string | null
  mailFrom: string
  /**
   * MAIL_RETRY_DELAY: the wait after a mail's first failed attempt (doubling after each further
   * one, 30 minutes at most); MAIL_RETRY_FOR: how long after it was queued a mail is given up on.
   */
  mailRetryDelaySeconds: number
  mailRetryForSeconds: number
  /** The first admin, created when there is no admin yet. */
  adminEmail: string | null
  adminPassword: string | null
  sessionTtlSeconds: number
  /** SESSION_IDLE_TIMEOUT: a session not used for this long ends. */
  sessionIdleSeconds: number
  /**
   * MFA_REQUIRED: who must set up a second factor (TOTP or a passkey) before doing anything
   * else once signed in: admins (the default), everyone (all), or no one (off).
   */
  mfaRequired: MfaRequired
  /** Requests per minute one address may make to /api/auth (sign-in failures have their own limit). */
  authRateLimit: number
  /** An existing backend: every /api call is proxied there and the built-in API is off. */
  apiUpstream: string | null
  /** Prometheus metrics on this port (never the public one); null: no metrics. */
  metricsPort: number | null
  /** Days the audit log keeps an event (AUDIT_RETENTION); older ones are pruned every hour. */
  auditRetentionDays: number
  /** API_CONCURRENCY: API requests served at once; null: the engine's default (http/admission.ts). */
  apiConcurrency: number | null
  /** QUEUE_WAIT_MS: the longest an API request waits for its turn; longer is a 503 at once. */
  queueWaitMs: number
}

export class ConfigError extends Error {
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

const validPassword = (value: string) => {
  const length = passwordLength(value)
  return length >= PASSWORD_MIN_LENGTH && length <= PASSWORD_MAX_LENGTH
}

/**
 * PUBLIC_URL's default: the address the server listens on, exactly. "localhost" for 127.0.0.1
 * would be another origin to the browser, with its own storage: a reset link opened there would
 * not have the colour mode (or anything else) chosen on the panel. A wildcard address is not one
 * to browse to; its loopback stands in for it.
 */
export function listeningUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
}

export function loadConfig(env: Env): Config {
  const read = new EnvReader(env)
  const port = read.port('PORT', 8080)
  const host = read.host('HOST', '127.0.0.1')
  const config: Config = {
    port,
    host,
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    https: read.flag('HTTPS', false),
    trustProxy: read.trustProxy('TRUST_PROXY'),
    publicUrl: (read.url('PUBLIC_URL', ['http:', 'https:']) ?? listeningUrl(host, port)).replace(
      /\/+$/,
      '',
    ),
    dataDir: read.path('DATA_DIR', './data'),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:'], true),
    smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:'], true),
    mailFrom:
      read.matching(
        'MAIL_FROM',
        (value) => value.length <= 200,
        'is too long (200 characters at most)',
      ) ?? 'Painel <painel@localhost>',
    mailRetryDelaySeconds: read.duration('MAIL_RETRY_DELAY', 10, 1, 3600),
    mailRetryForSeconds: read.duration('MAIL_RETRY_FOR', 86_400, 60, 30 * 86_400),
    // Kept in the one form every comparison uses (common/account-rules.ts).
    adminEmail: canonicalEmail(
      read.matching('ADMIN_EMAIL', isValidEmail, 'is not an e-mail address') ?? '',
    ),
    adminPassword: read.matching(
      'ADMIN_PASSWORD',
      validPassword,
      `must have ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      true,
    ),
    sessionTtlSeconds: read.duration('SESSION_TTL', 12 * 3600, 60, 30 * 86_400),
    sessionIdleSeconds: read.duration('SESSION_IDLE_TIMEOUT', 30 * 60, 60, 30 * 86_400),
    mfaRequired: read.oneOf('MFA_REQUIRED', MFA_REQUIRED_VALUES, 'admins'),
    authRateLimit: read.integer('AUTH_RATE_LIMIT', 60, 1, 100_000),
    apiUpstream: read.url('API_UPSTREAM', ['http:', 'https:']),
    metricsPort: read.raw('METRICS_PORT') === undefined ? null : read.port('METRICS_PORT', 0),
    auditRetentionDays: read.integer('AUDIT_RETENTION', 365, 1, 36_500),
    apiConcurrency:
      read.raw('API_CONCURRENCY') === undefined
        ? null
        : read.integer('API_CONCURRENCY', 1, 1, 1000),
    // Half a second: with a request's own time, a served answer's p99 stays under a second
    // (npm run bench -- --only overload).
    queueWaitMs: read.integer('QUEUE_WAIT_MS', 500, 10, 60_000),
    ...readSingleSignOn(read, env),
  }
  if (config.metricsPort !== null && config.metricsPort !== 0 && config.metricsPort === port) {
    read.problems.push(
      `METRICS_PORT=${port} is the public PORT: metrics need a port of their own, never the public one`,
    )
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems)
  return config
}
