import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { SignedIn } from '../../../common/api/auth'
import {
  PasskeyOptionsBodySchema,
  PasskeySignInBodySchema,
  SignedInSchema,
} from '../../../common/api/auth'
import { errorAnswers } from '../../../common/api/errors'
import { RequestOptionsSchema } from '../../../common/api/webauthn'
import type { AuthService, Origin, SignInResult } from './sign-in'
import { apiError } from '../../http/errors'
import { passkeySignInOptions, signInWithPasskey } from './passkey-sign-in'

export interface PasskeySignInRoutesOptions {
  auth: AuthService
  /** auth-routes' one burst limiter: these calls share its count per address. */
  burstLimit: preHandlerAsyncHookHandler
  /** auth-routes' reading of the address and device cookie. */
  originOf: (request: FastifyRequest) => Origin
  /** auth-routes' ending of every sign-in: session, device cookie, or the refusal. */
  answerSignIn: (result: SignInResult, reply: FastifyReply) => unknown
}

/**
 * POST /api/auth/passkey/options and POST /api/auth/passkey (docs/architecture.md, "Fixed contracts"), registered
 * inside auth-routes so that they share its burst limit, its cookie handling and its answers.
 */
const passkeySignInRoutes: FastifyPluginAsyncTypebox<PasskeySignInRoutesOptions> = async (
  app,
  { auth, burstLimit, originOf, answerSignIn },
) => {
  app.post(
    '/passkey/options',
    {
      schema: {
        summary: 'WebAuthn request options for signing in with a passkey (for startAuthentication)',
        description:
          "{}: any of this site's discoverable passkeys, no e-mail needed. {challenge}: the passkeys of that login's account, as its second factor. The challenge is good for 5 minutes, once. 401 challenge_expired: the login's challenge is not usable.",
        body: PasskeyOptionsBodySchema,
        response: { 200: RequestOptionsSchema, ...errorAnswers(400, 401, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      const options = await passkeySignInOptions(auth, request.body?.challenge ?? undefined)
      if (options === 'challenge_expired') throw apiError(401, 'challenge_expired')
      reply.header('cache-control', 'no-store')
      return options
    },
  )

  app.post(
    '/passkey',
    {
      schema: {
        summary: 'Sign in with a passkey (alone, or as the second factor of a login)',
        description:
          "401 invalid_passkey: unknown, not this login's account's, or the signature, challenge, origin, user verification or counter (a cloned authenticator) does not hold; counted like a wrong password. 401 challenge_expired: the login's challenge is not usable. 403 pending_approval / account_disabled, as for a password.",
        body: PasskeySignInBodySchema,
        response: { 200: SignedInSchema, ...errorAnswers(400, 401, 403, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      const result = await signInWithPasskey(
        auth,
        request.body.response,
        request.body.challenge,
        originOf(request),
      )
      if (result.outcome === 'invalid_passkey') throw apiError(401, 'invalid_passkey')
      return answerSignIn(result, reply) as SignedIn
    },
  )
}

export default passkeySignInRoutes
