import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { AuthService } from '../features/sign-in/sign-in'
import authRoutes from '../features/sign-in/sign-in-routes'
import { ensureFirstAdmin } from '../accounts/first-admin'
import { prunePasswordResets } from '../accounts/password-resets'
import { pruneSessions } from '../accounts/sessions'
import { pruneMfaChallenges } from '../accounts/mfa-challenges'
import auditRoutes from '../features/audit/audit-routes'
import { pruneAudit } from '../audit-log/audit-query'
import dashboardRoutes from '../features/dashboard/dashboard-routes'
import meRoutes from '../features/my-account/my-account-routes'
import { registrationNotifier } from '../features/registration/registration-notices'
import staffRoutes from '../features/staff/staff-routes'
import { pruneSignInLimits } from '../accounts/sign-in-limits'
import { pruneTrustedDevices } from '../accounts/trusted-devices'
import type { Config } from '../config/config'
import type { Database } from '../db/database'
import { HttpError } from '../http/errors'
import { tooManyAttemptsMessage } from '../messages'
import type { MailOutbox } from '../mail/outbox'

export interface BuiltInApiOptions {
  config: Pick<
    Config,
    | 'adminEmail'
    | 'adminPassword'
    | 'sessionTtlSeconds'
    | 'sessionIdleSeconds'
    | 'mfaRequired'
    | 'publicUrl'
    | 'authRateLimit'
    | 'https'
    | 'auditRetentionDays'
  >
  database: Database
  /** The mail outbox's sender: started with the app, stopped (nothing lost) when it closes. */
  outbox: MailOutbox
  /** The clock of sessions and second factors (tests move it). */
  clock?: () => Date
}

const HOUR_MS = 60 * 60 * 1000

/** The panel's own API (docs/architecture.md, "Fixed contracts") on its database: /api/auth, /api/staff, /api/audit, /api/dashboard. */
export default fp<BuiltInApiOptions>(
  async (app, { config, database, outbox, clock }) => {
    const { db } = database
    await ensureFirstAdmin(db, config, app.log)

    const staffDeps = { db, outbox, log: app.log, publicUrl: config.publicUrl }
    const notifyAdmins = registrationNotifier(staffDeps)
    const auth = new AuthService({
      db,
      outbox,
      log: app.log,
      sessionTtlSeconds: config.sessionTtlSeconds,
      sessionIdleSeconds: config.sessionIdleSeconds,
      mfaRequired: config.mfaRequired,
      ...(clock ? { now: clock } : {}),
      publicUrl: config.publicUrl,
      onRegistered: () => void notifyAdmins.run(),
    })

    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          'too_many_attempts',
          tooManyAttemptsMessage(Math.ceil(context.ttl / 1000)),
        ),
    })
    await app.register(authRoutes, {
      prefix: '/api/auth',
      auth,
      requestsPerMinute: config.authRateLimit,
      secureCookies: config.https,
    })
    await app.register(meRoutes, { prefix: '/api/me', auth })
    await app.register(staffRoutes, { prefix: '/api/staff', auth, ...staffDeps })
    await app.register(auditRoutes, { prefix: '/api', auth, db })
    await app.register(dashboardRoutes, { prefix: '/api/dashboard', auth, db })
    // An unknown /api path is a plain 404 (the static 404 handler covers it).

    // Expired sessions, used reset links and old throttle counts: removed now and every hour.
    const housekeeping = async () => {
      try {
        await Promise.all([
          pruneSessions(db, clock?.()),
          pruneMfaChallenges(db, clock?.()),
          prunePasswordResets(db),
          pruneSignInLimits(db),
          pruneTrustedDevices(db),
          pruneAudit(db, config.auditRetentionDays),
          outbox.prune(),
        ])
      } catch (error) {
        app.log.warn({ err: error }, 'housekeeping of expired sessions failed; will retry')
      }
    }
    await housekeeping()
    const timer = setInterval(() => void housekeeping(), HOUR_MS).unref()
    // Registrations the 15-minute limit held back go out within a minute of it ending.
    const notices = setInterval(() => void notifyAdmins.run(), 60_000).unref()
    // Sending starts once the app is ready (what waited over a restart goes out first).
    app.addHook('onReady', () => outbox.start())
    app.addHook('onClose', async () => {
      clearInterval(timer)
      clearInterval(notices)
      // Work after an answer, and the mail being sent, finish before the database closes.
      await auth.settled()
      await notifyAdmins.settled()
      await outbox.stop()
    })
  },
  { name: 'built-in-api' },
)
