import type { FastifyRequest } from 'fastify'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { UserAnswerSchema } from '../../../common/api/account'
import {
  CurrentSessionSchema,
  MyAccountChangeBodySchema,
  MfaStatusSchema,
  PasswordBodySchema,
  RecoveryCodesSchema,
  SessionIdParamsSchema,
  SessionListSchema,
  TotpConfirmBodySchema,
  TotpSetupSchema,
} from '../../../common/api/me'
import type { Origin } from '../../sign-in-steps/check-origin'
import { mfaStatus } from '../../accounts/second-factors'
import { beginTotp, confirmTotp, regenerateRecoveryCodes, turnTotpOff } from './my-totp'
import { requestOrigin } from '../../http/request-origin'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { touchSession } from '../../accounts/sessions'
import { publicUser } from '../../accounts/accounts'
import { renameMe } from './my-name'
import { currentSession, endMySessions, listMySessions } from './my-sessions'
import { myPasskeyRoutes } from './my-passkey-routes'
import { answerWithoutBody } from '../../http/answer-without-body'

/** The session and account the guard found: set on every route of this plugin. */
const me = (request: FastifyRequest) => ({
  account: request.account!,
  session: request.session!,
})

/**
 * Where a password check from "Minha conta" comes from. The device cookie is scoped to
 * /api/auth, so these count against the account from this address, like a new browser.
 */
const originOf = (request: FastifyRequest): Origin => ({
  address: request.ip,
  audit: requestOrigin(request),
})

/**
 * The signed-in person's own account, under /api/me (common/api/me.ts): each route maps one use
 * case of this folder to HTTP. Every call needs a session; answers are not cached.
 */
export default guardedRoutes([signedIn], async (app, context) => {
  const { db, now } = context
  const idleSeconds = context.config.sessionIdleSeconds

  app.patch(
    '/',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: "Correct one's own name (the rules of registration; audited before and after)",
        description:
          "Corrects the signed-in person's own name, with the same rules as a registration. The audit log keeps the name before and after.",
        security: bearer,
        body: MyAccountChangeBodySchema,
        response: { 200: UserAnswerSchema, ...errorAnswers(400, 401) },
      },
    },
    async (request) => {
      const { account } = me(request)
      const renamed = await renameMe(db, account, request.body.name, requestOrigin(request))
      return { user: publicUser(renamed) }
    },
  )

  app.get(
    '/session',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: "This session's limits (for the idle warning)",
        description:
          'When this session ends: its absolute end and its idle end, which every authenticated call slides. The panel uses it to warn before the idle end.',
        security: bearer,
        response: { 200: CurrentSessionSchema, ...errorAnswers(401) },
      },
    },
    async (request) => currentSession(me(request).session, idleSeconds),
  )

  app.post(
    '/session/renew',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Slide the idle end of this session now ("Continuar conectado")',
        description:
          'Slides this session\'s idle end now, as any authenticated call would; the idle warning\'s "Continuar conectado" calls it.',
        security: bearer,
        response: { 200: CurrentSessionSchema, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const { session } = me(request)
      session.last_seen_at = await touchSession(db, session, idleSeconds, now(), true)
      return currentSession(session, idleSeconds)
    },
  )

  app.get(
    '/sessions',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'My open sessions, this one first',
        description:
          "The signed-in person's open sessions, this one first, with when each started and was last used, its address and browser.",
        security: bearer,
        response: { 200: SessionListSchema, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const { account, session } = me(request)
      return {
        sessions: await listMySessions(db, account, session, idleSeconds, now()),
      }
    },
  )

  app.delete(
    '/sessions/:id',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'End one of my sessions',
        description:
          "Ends one of the signed-in person's sessions (404 if it is not theirs or already ended). Ending this one signs them out.",
        security: bearer,
        params: SessionIdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await endMySessions(
        db,
        me(request).account,
        { id: request.params.id.toLowerCase() },
        requestOrigin(request),
        now(),
      )
      return answerWithoutBody(reply, 204)
    },
  )

  app.delete(
    '/sessions',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'End every session of mine but this one',
        description: 'Ends every session of the signed-in person except this one.',
        security: bearer,
        response: { 204: NoContentSchema, ...errorAnswers(401) },
      },
    },
    async (request, reply) => {
      await endMySessions(
        db,
        me(request).account,
        { allBut: request.sessionToken! },
        requestOrigin(request),
        now(),
      )
      return answerWithoutBody(reply, 204)
    },
  )

  app.get(
    '/mfa',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Which second factors I have',
        description:
          'Which second factors the signed-in person has: the authenticator app, how many recovery codes are left, how many passkeys.',
        security: bearer,
        response: { 200: MfaStatusSchema, ...errorAnswers(401) },
      },
    },
    async (request) => mfaStatus(db, me(request).account.id),
  )

  app.post(
    '/totp',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Start turning on an authenticator app: a new secret, active once confirmed',
        description:
          'Starts turning on an authenticator app: a new secret and its otpauth:// URL, not active until confirmed with POST /api/me/totp/confirm. 409 when one is already on.',
        security: bearer,
        response: { 200: TotpSetupSchema, ...errorAnswers(401, 409) },
      },
    },
    async (request) => beginTotp(context, me(request).account),
  )

  app.post(
    '/totp/confirm',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Confirm the authenticator app with a code: 10 recovery codes, shown once',
        description:
          'Confirms the new authenticator app with a code it shows; the app is on from then, and the answer holds 10 single-use recovery codes, shown this once.',
        security: bearer,
        body: TotpConfirmBodySchema,
        response: { 200: RecoveryCodesSchema, ...errorAnswers(400, 401, 409) },
      },
    },
    async (request) =>
      confirmTotp(context, me(request).account, request.body.code, originOf(request)),
  )

  app.delete(
    '/totp',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Turn the authenticator app off (needs the password)',
        description:
          'Turns the authenticator app and its recovery codes off. Needs the current password (400 wrong_password, counted like a failed sign-in).',
        security: bearer,
        body: PasswordBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request, reply) => {
      await turnTotpOff(context, me(request).account, request.body.password, originOf(request))
      return answerWithoutBody(reply, 204)
    },
  )

  app.post(
    '/recovery-codes',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'New recovery codes (the old ones stop working; needs the password)',
        description:
          'Replaces the recovery codes with 10 new ones, shown this once; the old ones stop working. Needs the current password. 409 without an authenticator app.',
        security: bearer,
        body: PasswordBodySchema,
        response: { 200: RecoveryCodesSchema, ...errorAnswers(400, 401, 409, 429) },
      },
    },
    async (request) =>
      regenerateRecoveryCodes(
        context,
        me(request).account,
        request.body.password,
        originOf(request),
      ),
  )

  // GET/POST /passkeys, POST /passkeys/options, PATCH/DELETE /passkeys/:id.
  myPasskeyRoutes(app, context)
})
