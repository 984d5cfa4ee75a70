import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { ensureFirstAdmin } from '../accounts/first-admin'
import { pruneMfaChallenges } from '../accounts/mfa-challenges'
import { prunePasswordResets, remintPasswordReset } from '../accounts/password-resets'
import { pruneSessions } from '../accounts/sessions'
import { pruneSignInLimits, SignInLimits } from '../accounts/sign-in-limits'
import { pruneTrustedDevices } from '../accounts/trusted-devices'
import { pruneAudit } from '../audit-log/audit-query'
import type { Config } from '../config/config'
import type { Database } from '../db/database'
import auditRoutes from '../features/audit/audit-routes'
import changePasswordRoutes from '../features/change-password/change-password-routes'
import currentSessionRoutes from '../features/current-session/current-session-routes'
import dashboardRoutes from '../features/dashboard/dashboard-routes'
import myAccountRoutes from '../features/my-account/my-account-routes'
import myActivityRoutes from '../features/my-activity/my-activity-routes'
import passwordStrengthRoutes from '../features/password-strength/password-strength-routes'
import recoveryRoutes from '../features/recovery/recovery-routes'
import registrationRoutes from '../features/registration/registration-routes'
import signInRoutes from '../features/sign-in/sign-in-routes'
import { DatabaseHandOffStore } from '../features/sign-in-with-provider/hand-off-codes'
import myProviderLinksRoutes from '../features/sign-in-with-provider/my-provider-links-routes'
import signInWithProviderRoutes from '../features/sign-in-with-provider/sign-in-with-provider-routes'
import rolesRoutes from '../features/roles/roles-routes'
import staffRoutes from '../features/staff/staff-routes'
import teamsRoutes from '../features/teams/teams-routes'
import { HttpError } from '../http/errors'
import type { MailOutbox } from '../mail/outbox'
import { tooManyAttemptsMessage } from '../messages'
import type { ApiContext } from './api-context'
import { BackgroundWork } from './background-work'

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
    | 'authProviders'
    | 'passwordSignIn'
  >
  database: Database
  /** The mail outbox's sender: started with the app, stopped (nothing lost) when it closes. */
  outbox: MailOutbox
  /** The clock of sessions and second factors (tests move it). */
  clock?: () => Date
}

const HOUR_MS = 60 * 60 * 1000
/** A password typed with pauses asks for a few estimates; a sign-in is one call. */
export const TYPING_LIMIT_FACTOR = 5

/**
 * The panel's own API on its database (the routes and their schemas: common/api/), one plugin
 * per feature, each with its guard (server/features/<feature>/<feature>-routes.ts), all given the
 * same context.
 */
export default fp<BuiltInApiOptions>(
  async (app, { config, database, outbox, clock }) => {
    const { db } = database
    await ensureFirstAdmin(db, config, app.log)

    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          'too_many_attempts',
          tooManyAttemptsMessage(Math.ceil(context.ttl / 1000)),
        ),
    })
    const now = clock ?? (() => new Date())
    const context: ApiContext = {
      db,
      now,
      outbox,
      log: app.log,
      config,
      limits: new SignInLimits(db, now),
      burstLimit: app.rateLimit({ max: config.authRateLimit, timeWindow: 60_000 }),
      typingLimit: app.rateLimit({
        max: config.authRateLimit * TYPING_LIMIT_FACTOR,
        timeWindow: 60_000,
      }),
      background: new BackgroundWork(app.log),
    }
    // A waiting reset or invitation link gets a new token at each delivery (mail/outbox.ts).
    outbox.mintLinksWith(remintPasswordReset)

    // The features, one line each: the plugin and where its routes live.
    const features = [
      [signInRoutes, '/api/auth'],
      [signInWithProviderRoutes, '/api/auth'],
      [myProviderLinksRoutes, '/api/me'],
      [currentSessionRoutes, '/api/auth'],
      [registrationRoutes, '/api/auth'],
      [recoveryRoutes, '/api/auth'],
      [changePasswordRoutes, '/api/auth'],
      [passwordStrengthRoutes, '/api/auth'],
      [myAccountRoutes, '/api/me'],
      [staffRoutes, '/api/staff'],
      [rolesRoutes, '/api'],
      [teamsRoutes, '/api/teams'],
      [auditRoutes, '/api'],
      [dashboardRoutes, '/api/dashboard'],
      [myActivityRoutes, '/api/dashboard'],
    ] as const
    for (const [routes, prefix] of features) await app.register(routes, { ...context, prefix })
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
          new DatabaseHandOffStore(db).prune(clock?.() ?? new Date()),
          pruneAudit(db, config.auditRetentionDays),
          outbox.prune(),
        ])
      } catch (error) {
        app.log.warn({ err: error }, 'housekeeping of expired sessions failed; will retry')
      }
    }
    await housekeeping()
    const timer = setInterval(() => void housekeeping(), HOUR_MS).unref()
    // Sending starts once the app is ready (what waited over a restart goes out first).
    app.addHook('onReady', () => outbox.start())
    app.addHook('onClose', async () => {
      clearInterval(timer)
      // Work after an answer, and the mail being sent, finish before the database closes (the
      // features' own onClose hooks, registration's notices among them, have run already).
      await context.background.settled()
      await outbox.stop()
    })
  },
  { name: 'built-in-api' },
)
