import type { FastifyReply } from 'fastify'
import { apiError, tooManyAttempts } from '../http/errors'
import { publicUser } from '../accounts/accounts'
import type { SignInResult } from './complete-sign-in'
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS } from '../accounts/trusted-devices'

/**
 * Every way of signing in ends here: a session and the device cookie, or the refusal.
 * `secureCookies`: the device cookie is sent over HTTPS only (HTTPS on).
 */
export function answerSignIn(result: SignInResult, reply: FastifyReply, secureCookies: boolean) {
  switch (result.outcome) {
    case 'signed-in':
      reply.header('cache-control', 'no-store')
      reply.setCookie(DEVICE_COOKIE, result.deviceToken, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/api/auth',
        secure: secureCookies,
        maxAge: DEVICE_TTL_SECONDS,
      })
      return {
        token: result.token,
        user: publicUser(result.account),
        ...(result.recoveryCodesLeft === undefined
          ? {}
          : { recoveryCodesLeft: result.recoveryCodesLeft }),
      }
    case 'mfa':
      reply.header('cache-control', 'no-store')
      return { mfa: { challenge: result.challenge, methods: result.methods } }
    case 'invalid_credentials':
    case 'invalid_code':
    case 'challenge_expired':
      throw apiError(401, result.outcome)
    case 'pending_approval':
    case 'account_disabled':
      throw apiError(403, result.outcome)
    case 'too_many_attempts':
      throw tooManyAttempts(result.retryAfterSeconds)
  }
}
