import type { SignedIn } from '../../../common/api/auth'
import {
  PasskeyOptionsBodySchema,
  PasskeySignInBodySchema,
  SignedInSchema,
} from '../../../common/api/auth'
import { errorAnswers } from '../../../common/api/errors'
import { RequestOptionsSchema } from '../../../common/api/webauthn'
import type { ApiContext } from '../../api/api-context'
import type { FastifyTypebox } from '../../http/fastify-typebox'
import { checkOrigin } from '../../sign-in-steps/check-origin'
import { answerSignIn } from '../../sign-in-steps/answer-sign-in'
import { apiError } from '../../http/errors'
import { passkeySignInOptions, signInWithPasskey } from './passkey-sign-in'

/**
 * POST /api/auth/passkey/options and POST /api/auth/passkey (common/api/auth.ts): routes of the
 * sign-in plugin (sign-in-routes.ts), under its guard, cookie handling and answers.
 */
export function passkeySignInRoutes(app: FastifyTypebox, context: ApiContext): void {
  app.post(
    '/passkey/options',
    {
      schema: {
        'x-permission': 'public',
        summary: 'WebAuthn request options for signing in with a passkey (for startAuthentication)',
        description:
          "{}: any of this site's discoverable passkeys, no e-mail needed. {challenge}: the passkeys of that login's account, as its second factor. The challenge is good for 5 minutes, once. 401 challenge_expired: the login's challenge is not usable.",
        body: PasskeyOptionsBodySchema,
        response: { 200: RequestOptionsSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const options = await passkeySignInOptions(context, request.body?.challenge ?? undefined)
      if (options === 'challenge_expired') throw apiError(401, 'challenge_expired')
      reply.header('cache-control', 'no-store')
      return options
    },
  )

  app.post(
    '/passkey',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Sign in with a passkey (alone, or as the second factor of a login)',
        description:
          "401 invalid_passkey: unknown, not this login's account's, or the signature, challenge, origin, user verification or counter (a cloned authenticator) does not hold; counted like a wrong password. 401 challenge_expired: the login's challenge is not usable. 403 pending_approval / account_disabled, as for a password.",
        body: PasskeySignInBodySchema,
        response: { 200: SignedInSchema, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const result = await signInWithPasskey(
        context,
        request.body.response,
        request.body.challenge,
        checkOrigin(request),
      )
      if (result.outcome === 'invalid_passkey') throw apiError(401, 'invalid_passkey')
      return answerSignIn(result, reply, context.config.https) as SignedIn
    },
  )
}
