import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
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
import type { Origin } from '../sign-in/sign-in'
import { mfaStatus } from '../../accounts/second-factors'
import { beginTotp, confirmTotp, regenerateRecoveryCodes, turnTotpOff } from './my-totp'
import { requestOrigin } from '../../audit-log/record-audit'
import type { AuthService } from '../sign-in/sign-in'
import { requireSession } from '../../access/authenticate'
import { touchSession } from '../../accounts/sessions'
import { refuseUnstorableText } from '../../http/storable-input'
import { publicUser } from '../../accounts/accounts'
import { renameMe } from './my-name'
import { currentSession, endMySessions, listMySessions } from './my-sessions'
import myPasskeyRoutes from './my-passkey-routes'
import { answerWithoutBody } from '../../http/answer-without-body'

const bearer = [{ bearer: [] }]

/** The session and account requireSession found: set on every route of this plugin. */
const signedIn = (request: FastifyRequest) => ({
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
 * The signed-in user's own account (docs/architecture.md, "Fixed contracts", under /api/me): each route
 * maps one use case of this folder to HTTP. Every call needs a session; answers are not cached.
 */
const meRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  const { db } = auth
  app.addHook('preValidation', refuseUnstorableText)
  // onRequest, before the body is read: without a session, a malformed call is a 401 too.
  app.addHook('onRequest', requireSession(auth))
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.patch(
    '/',
    {
      schema: {
        summary: "Correct one's own name (the rules of registration; audited before and after)",
        security: bearer,
        body: MyAccountChangeBodySchema,
        response: { 200: UserAnswerSchema, ...errorAnswers(400, 401) },
      },
    },
    async (request) => {
      const { account } = signedIn(request)
      const renamed = await renameMe(db, account, request.body.name, requestOrigin(request))
      return { user: publicUser(renamed) }
    },
  )

  app.get(
    '/session',
    {
      schema: {
        summary: "This session's limits (for the idle warning)",
        security: bearer,
        response: { 200: CurrentSessionSchema, ...errorAnswers(401) },
      },
    },
    async (request) => currentSession(signedIn(request).session, auth.idleSeconds),
  )

  app.post(
    '/session/renew',
    {
      schema: {
        summary: 'Slide the idle end of this session now ("Continuar conectado")',
        security: bearer,
        response: { 200: CurrentSessionSchema, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const { session } = signedIn(request)
      session.last_seen_at = await touchSession(db, session, auth.idleSeconds, auth.now(), true)
      return currentSession(session, auth.idleSeconds)
    },
  )

  app.get(
    '/sessions',
    {
      schema: {
        summary: 'My open sessions, this one first',
        security: bearer,
        response: { 200: SessionListSchema, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const { account, session } = signedIn(request)
      return {
        sessions: await listMySessions(db, account, session, auth.idleSeconds, auth.now()),
      }
    },
  )

  app.delete(
    '/sessions/:id',
    {
      schema: {
        summary: 'End one of my sessions',
        security: bearer,
        params: SessionIdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await endMySessions(
        db,
        signedIn(request).account,
        { id: request.params.id.toLowerCase() },
        requestOrigin(request),
        auth.now(),
      )
      return answerWithoutBody(reply, 204)
    },
  )

  app.delete(
    '/sessions',
    {
      schema: {
        summary: 'End every session of mine but this one',
        security: bearer,
        response: { 204: NoContentSchema, ...errorAnswers(401) },
      },
    },
    async (request, reply) => {
      await endMySessions(
        db,
        signedIn(request).account,
        { allBut: request.sessionToken! },
        requestOrigin(request),
        auth.now(),
      )
      return answerWithoutBody(reply, 204)
    },
  )

  app.get(
    '/mfa',
    {
      schema: {
        summary: 'Which second factors I have',
        security: bearer,
        response: { 200: MfaStatusSchema, ...errorAnswers(401) },
      },
    },
    async (request) => mfaStatus(db, signedIn(request).account.id),
  )

  app.post(
    '/totp',
    {
      schema: {
        summary: 'Start turning on an authenticator app: a new secret, active once confirmed',
        security: bearer,
        response: { 200: TotpSetupSchema, ...errorAnswers(401, 409) },
      },
    },
    async (request) => beginTotp(auth, signedIn(request).account),
  )

  app.post(
    '/totp/confirm',
    {
      schema: {
        summary: 'Confirm the authenticator app with a code: 10 recovery codes, shown once',
        security: bearer,
        body: TotpConfirmBodySchema,
        response: { 200: RecoveryCodesSchema, ...errorAnswers(400, 401, 409) },
      },
    },
    async (request) =>
      confirmTotp(auth, signedIn(request).account, request.body.code, originOf(request)),
  )

  app.delete(
    '/totp',
    {
      schema: {
        summary: 'Turn the authenticator app off (needs the password)',
        security: bearer,
        body: PasswordBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request, reply) => {
      await turnTotpOff(auth, signedIn(request).account, request.body.password, originOf(request))
      return answerWithoutBody(reply, 204)
    },
  )

  app.post(
    '/recovery-codes',
    {
      schema: {
        summary: 'New recovery codes (the old ones stop working; needs the password)',
        security: bearer,
        body: PasswordBodySchema,
        response: { 200: RecoveryCodesSchema, ...errorAnswers(400, 401, 409, 429) },
      },
    },
    async (request) =>
      regenerateRecoveryCodes(
        auth,
        signedIn(request).account,
        request.body.password,
        originOf(request),
      ),
  )

  // GET/POST /passkeys, POST /passkeys/options, PATCH/DELETE /passkeys/:id (under these hooks).
  await app.register(myPasskeyRoutes, { auth })
}

export default meRoutes
