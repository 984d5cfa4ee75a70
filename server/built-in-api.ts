import rateLimit from '@fastify/rate-limit'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fp from 'fastify-plugin'
import { ensureFirstAdmin, type FirstAdminSettings } from './accounts/first-admin'
import { closedAmong } from './accounts/sessions'
import {
  DEFAULT_SESSION_WATCH,
  SessionWatch,
  type SessionWatchOptions,
} from './accounts/session-watch'
import { denyByDefault } from './access/guarded-routes'
import { hashingQueue } from './accounts/passwords'
import { pruneMfaChallenges } from './accounts/mfa-challenges'
import { prunePasswordResets, remintPasswordReset } from './accounts/password-resets'
import { pruneSessions } from './accounts/sessions'
import { pruneSignInLimits, SignInLimits } from './accounts/sign-in-limits'
import { pruneTrustedDevices } from './accounts/trusted-devices'
import { pruneAudit } from './audit-log/audit-query'
import type { Config } from './config/config'
import type { Database } from './db/database'
import auditRoutes from './features/audit/audit-routes'
import changePasswordRoutes from './features/change-password/change-password-routes'
import currentSessionRoutes from './features/current-session/current-session-routes'
import dashboardRoutes from './features/dashboard/dashboard-routes'
import myAccountRoutes from './features/my-account/my-account-routes'
import myActivityRoutes from './features/my-activity/my-activity-routes'
import passwordStrengthRoutes from './features/password-strength/password-strength-routes'
import recoveryRoutes from './features/recovery/recovery-routes'
import registrationRoutes from './features/registration/registration-routes'
import signInRoutes from './features/sign-in/sign-in-routes'
import { DatabaseHandOffStore } from './features/sign-in-with-provider/hand-off-codes'
import { prunePendingLinks } from './features/sign-in-with-provider/pending-links'
import myProviderLinksRoutes from './features/sign-in-with-provider/my-provider-links-routes'
import signInWithProviderRoutes from './features/sign-in-with-provider/sign-in-with-provider-routes'
import linkInvitationRoutes from './features/sign-in-with-provider/link-invitation-routes'
import {
  pruneLinkInvitations,
  remintLinkInvitation,
} from './features/sign-in-with-provider/link-invitations'
import rolesRoutes from './features/roles/roles-routes'
import {
  emailLinkRoutes,
  myEmailChangeRoutes,
  staffEmailChangeRoutes,
} from './features/email-change/email-change-routes'
import {
  pruneEmailChanges,
  remintEmailChangeLink,
} from './features/email-change/request-email-change'
import {
  myDeletionRequestRoutes,
  staffDeletionRoutes,
} from './features/account-deletion/account-deletion-routes'
import { remindOfDeletionRequests } from './features/account-deletion/deletion-request-mails'
import myDataRoutes from './features/my-data/my-data-routes'
import securityNoticesRoutes from './features/security-notices/security-notices-routes'
import staffRoutes from './features/staff/staff-routes'
import teamsRoutes from './features/teams/teams-routes'
import scimRoutes from './features/provisioning/scim-routes'
import scimTokensRoutes from './features/provisioning/scim-tokens-routes'
import {
  ADMISSION_RETRY_AFTER_SECONDS,
  AdmissionQueue,
  admitThroughQueue,
  DEFAULT_CONCURRENCY,
  type AdmissionOptions,
} from './http/admission'
import { HttpError } from './http/errors'
import type { MailOutbox } from './mail/outbox'
import { tooManyAttemptsMessage } from './http/messages'
import { API_GROUPS, type ApiGroup } from './openapi/api-groups'
import type { ApiContext } from './api/api-context'
import { BackgroundWork } from './api/background-work'

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
    | 'apiConcurrency'
    | 'queueWaitMs'
  > &
    Pick<FirstAdminSettings, 'adminPasswordHash'>
  database: Database
  /** The mail outbox's sender: started with the app, stopped (nothing lost) when it closes. */
  outbox: MailOutbox
  /** The clock of sessions and second factors (tests move it). */
  clock?: () => Date
  /** The admission queue's settings beyond the config's, and its clock (tests). */
  admission?: Partial<AdmissionOptions> & { now?: () => number }
  /** How the open session streams are watched (accounts/session-watch.ts); tests shorten it. */
  sessionWatch?: Partial<SessionWatchOptions>
  /** How long after the start housekeeping first runs (tests shorten it). */
  housekeepingDelayMs?: number
}

/** One feature of the API: its routes plugin, the prefix they live under, their group. */
interface Feature {
  routes: FastifyPluginAsyncTypebox<ApiContext>
  prefix: '/api' | `/api/${string}` | '/scim/v2'
  group: ApiGroup
}

const HOUR_MS = 60 * 60 * 1000
/**
 * How long after a start housekeeping first runs. Run before the server listened, a start waited
 * for it: little on a tidy database (25 restarts each way, alternated, had the same median), but
 * every batch of a retention made shorter, 3.6 s at 100k people with a third of 100k events to
 * drop (by hand, on data the scale bench's seeding code made). Nothing it removes is taken as
 * valid meanwhile: sessions, links and challenges are checked against their own ends.
 */
export const FIRST_HOUSEKEEPING_MS = 60_000
/** A password typed with pauses asks for a few estimates; a sign-in is one call. */
export const TYPING_LIMIT_FACTOR = 5

/**
 * The panel's own API on its database (the routes and their schemas: common/api/), one plugin
 * per feature, each with its guard (server/features/<feature>/<feature>-routes.ts), all given the
 * same context.
 */
export default fp<BuiltInApiOptions>(
  async (
    app,
    {
      config,
      database,
      outbox,
      clock,
      admission,
      sessionWatch,
      housekeepingDelayMs = FIRST_HOUSEKEEPING_MS,
    },
  ) => {
    const { db } = database
    // A first start hashes ADMIN_PASSWORD (scrypt, on libuv's threads; begun by main.ts when
    // DATA_DIR held no database): the features' routes are set up meanwhile on this thread, and
    // the admin exists before this plugin is done.
    const firstAdmin = ensureFirstAdmin(db, config, app.log)
    firstAdmin.catch(() => {}) // awaited below, where its failure is thrown

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
      sessionWatch: new SessionWatch(
        (ids) => closedAmong(db, ids, config.sessionIdleSeconds, now()),
        { ...DEFAULT_SESSION_WATCH, ...sessionWatch },
        app.log,
      ),
    }
    // The streams end as the drain starts (a browser opens its own on another replica), and the
    // watch stops with the app.
    app.drainStarted?.addEventListener('abort', () => context.sessionWatch.endAll())
    app.addHook('onClose', () => context.sessionWatch.stop())
    // A waiting reset or invitation link gets a new token at each delivery (mail/outbox.ts).
    // A waiting change of e-mail's confirm and cancel links likewise (features/email-change/),
    // and an admin's link to connect a provider (features/sign-in-with-provider/).
    outbox.mintLinksWith(
      async (trx, hash, at) =>
        (await remintPasswordReset(trx, hash, at)) ??
        (await remintEmailChangeLink(trx, hash, at)) ??
        (await remintLinkInvitation(trx, hash, at)),
    )

    // The features, one line each: the plugin, where its routes live, and the group the
    // OpenAPI document files them under (server/openapi/api-groups.ts, or one of its own inline).
    const features: readonly Feature[] = [
      { routes: signInRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: signInWithProviderRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: myProviderLinksRoutes, prefix: '/api/me', group: API_GROUPS.myAccount },
      { routes: currentSessionRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: registrationRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: recoveryRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: changePasswordRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: passwordStrengthRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: myAccountRoutes, prefix: '/api/me', group: API_GROUPS.myAccount },
      { routes: securityNoticesRoutes, prefix: '/api/me', group: API_GROUPS.myAccount },
      { routes: myEmailChangeRoutes, prefix: '/api/me', group: API_GROUPS.myAccount },
      { routes: myDataRoutes, prefix: '/api/me', group: API_GROUPS.myAccount },
      { routes: myDeletionRequestRoutes, prefix: '/api/me', group: API_GROUPS.myAccount },
      { routes: staffDeletionRoutes, prefix: '/api/staff', group: API_GROUPS.staff },
      { routes: emailLinkRoutes, prefix: '/api/auth', group: API_GROUPS.signIn },
      { routes: staffEmailChangeRoutes, prefix: '/api/staff', group: API_GROUPS.staff },
      { routes: linkInvitationRoutes, prefix: '/api/staff', group: API_GROUPS.staff },
      { routes: staffRoutes, prefix: '/api/staff', group: API_GROUPS.staff },
      { routes: rolesRoutes, prefix: '/api', group: API_GROUPS.roles },
      { routes: teamsRoutes, prefix: '/api/teams', group: API_GROUPS.teams },
      { routes: auditRoutes, prefix: '/api', group: API_GROUPS.audit },
      { routes: dashboardRoutes, prefix: '/api/dashboard', group: API_GROUPS.dashboard },
      { routes: myActivityRoutes, prefix: '/api/dashboard', group: API_GROUPS.dashboard },
      {
        routes: scimTokensRoutes,
        prefix: '/api/scim-tokens',
        group: {
          name: 'Provisioning tokens',
          description:
            'The tokens a directory (Entra ID, Okta) provisions people with through /scim/v2 ' +
            '(SCIM 2.0, docs/provisioning.md): shown once, kept hashed.',
        },
      },
      // SCIM 2.0 for the organisation's directory: its own token, media type and errors, and
      // not in the OpenAPI document (its routes are hidden; RFC 7644 describes them).
      {
        routes: scimRoutes,
        prefix: '/scim/v2',
        group: { name: 'SCIM', description: 'SCIM 2.0 (RFC 7644), for directories.' },
      },
    ]
    // Behind the admission queue, in a context of their own (the static files and /healthz are
    // not): what the database cannot serve soon is refused at once (http/admission.ts).
    const laneOf = (concurrency: number) =>
      new AdmissionQueue(
        {
          concurrency,
          maxWaitMs: config.queueWaitMs,
          retryAfterSeconds: ADMISSION_RETRY_AFTER_SECONDS,
          ...admission,
        },
        admission?.now,
      )
    const lanes = {
      api: laneOf(config.apiConcurrency ?? DEFAULT_CONCURRENCY[database.engine]),
      'sign-in': laneOf(hashingQueue.concurrency + hashingQueue.maxWaiting + 4),
    }
    await app.register(async (api) => {
      admitThroughQueue(api, lanes)
      denyByDefault(api, context)
      for (const { routes, prefix, group } of features) {
        await api.register(async (feature) => {
          feature.addHook('onRoute', (route) => {
            route.config = { ...route.config, apiGroup: group }
          })
          await feature.register(routes, { ...context, prefix })
        })
      }
    })
    await firstAdmin
    // An unknown /api path is a plain 404 (the static 404 handler covers it).

    // Expired sessions, used reset links and old throttle counts: removed a minute after the
    // start (FIRST_HOUSEKEEPING_MS) and every hour; and the reminders of requests for deletion
    // whose deadline nears.
    const housekeeping = async () => {
      try {
        await Promise.all([
          pruneSessions(db, clock?.()),
          pruneMfaChallenges(db, clock?.()),
          prunePasswordResets(db),
          pruneSignInLimits(db, clock?.()),
          pruneTrustedDevices(db),
          new DatabaseHandOffStore(db).prune(clock?.() ?? new Date()),
          prunePendingLinks(db, clock?.() ?? new Date()),
          pruneLinkInvitations(db, clock?.() ?? new Date()),
          pruneAudit(db, config.auditRetentionDays),
          outbox.prune(),
          pruneEmailChanges(db, clock?.()),
          remindOfDeletionRequests({ db, outbox, config }, clock?.()),
        ])
      } catch (error) {
        app.log.warn({ err: error }, 'housekeeping of expired sessions failed; will retry')
      }
    }
    let round: Promise<void> | undefined
    const run = () => {
      round = housekeeping()
    }
    let timer = setTimeout(() => {
      run()
      timer = setInterval(run, HOUR_MS).unref()
    }, housekeepingDelayMs).unref()
    // Security notices are queued with the audit events that call for them, deep in use cases
    // that hold no outbox (audit-log/record-audit.ts): a change's answer, sent after its commit,
    // wakes the sender, so a notice does not wait for the next poll.
    app.addHook('onResponse', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') outbox.wake()
    })
    // Sending starts once the app is ready (what waited over a restart goes out first).
    app.addHook('onReady', () => outbox.start())
    app.addHook('onClose', async () => {
      clearInterval(timer)
      await round
      // Work after an answer, and the mail being sent, finish before the database closes (the
      // features' own onClose hooks, registration's notices among them, have run already).
      await context.background.settled()
      await outbox.stop()
    })
  },
  { name: 'built-in-api' },
)
