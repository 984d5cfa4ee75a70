import cookie from '@fastify/cookie'
import {
  MfaCodeBodySchema,
  SignedInWithCodeSchema,
  SignInAnswerSchema,
  type SignedInWithCode,
  SignInBodySchema,
} from '../../../common/api/auth'
import { errorAnswers } from '../../../common/api/errors'
import { hashingQueue } from '../../accounts/passwords'
import { burstLimit, guardedRoutes } from '../../access/guarded-routes'
import { checkOrigin } from '../../sign-in-steps/check-origin'
import { answerSignIn } from '../../sign-in-steps/answer-sign-in'
import { passkeySignInRoutes } from './passkey-sign-in-routes'
import { signIn, signInWithCode } from './sign-in'

/**
 * Signing in, under /api/auth (common/api/auth.ts): a password, its second step, or a passkey.
 * Anyone may call them, each call counted by the burst limit per address. Each route's schema is
 * the one source of its types: Fastify validates the body with it, the handler's types come from
 * it (the TypeBox type provider), and the answer is serialised through it, so only the fields it
 * lists can leave the server.
 */
export default guardedRoutes([burstLimit], async (app, context) => {
  await app.register(cookie)
  const secureCookies = context.config.https

  /**
   * A password check the hashing queue would refuse is refused before the sign-in limits write
   * their count (and then give it back): under a flood those writes, commits made on the event
   * loop for requests that were shed anyway, kept every other request waiting, /healthz too.
   */
  const refuseWhileHashingIsFull = async () => hashingQueue.refuseWhenFull()

  app.post(
    '/login',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Sign in with e-mail and password (or get a second-factor challenge)',
        description:
          'Public. Checks the e-mail and password. Without a second factor the answer holds the session token and the account. With one, it holds a challenge instead (no token): finish with POST /api/auth/login/mfa or POST /api/auth/passkey. Wrong passwords are counted per account and address: after too many, 429 with Retry-After. 403 says the account waits for approval or is disabled.',
        body: SignInBodySchema,
        response: { 200: SignInAnswerSchema, ...errorAnswers(400, 401, 403, 429) },
      },
      onRequest: refuseWhileHashingIsFull,
      config: { admissionLane: 'sign-in' },
    },
    async (request, reply) =>
      answerSignIn(
        await signIn(context, request.body.email, request.body.password, checkOrigin(request)),
        reply,
        secureCookies,
      ),
  )

  app.post(
    '/login/mfa',
    {
      schema: {
        'x-permission': 'public',
        summary: "Finish a sign-in with a TOTP code or a recovery code for the login's challenge",
        description:
          'After a recovery code the answer also says how many recovery codes are left (recoveryCodesLeft). 401 invalid_code: the code is wrong (the challenge allows 5); 401 challenge_expired: the challenge is unknown, used, older than 5 minutes or out of tries (sign in with the password again).',
        body: MfaCodeBodySchema,
        response: { 200: SignedInWithCodeSchema, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (request, reply) =>
      answerSignIn(
        await signInWithCode(
          context,
          request.body.challenge,
          request.body.code,
          checkOrigin(request),
        ),
        reply,
        secureCookies,
      ) as SignedInWithCode,
  )

  passkeySignInRoutes(app, context)
})
