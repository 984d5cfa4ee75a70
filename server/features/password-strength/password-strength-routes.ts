import { PasswordStrengthBodySchema, PasswordStrengthSchema } from '../../../common/api/auth'
import { errorAnswers } from '../../../common/api/errors'
import { isCommonPassword } from '../../accounts/common-passwords'
import { guardedRoutes, typingLimit } from '../../access/guarded-routes'
import { StrengthEstimator } from './strength-estimator'

/**
 * What the person typed in the form, as zxcvbn matches it (whole entries only): each entry, its
 * words of three letters or more ("Ribeirão", "Gusmão"), an e-mail's part before the @, and each
 * of these without accents.
 */
export function guessableWords(userInputs: string[]): string[] {
  const words = new Set<string>()
  for (const input of userInputs) {
    const entry = input.normalize('NFC').trim().toLowerCase()
    if (entry === '') continue
    words.add(entry)
    const localPart = entry.includes('@') ? entry.slice(0, entry.lastIndexOf('@')) : entry
    words.add(localPart)
    for (const word of localPart.split(/[^\p{L}\p{N}]+/u)) if (word.length >= 3) words.add(word)
  }
  // People drop the accents when they type a name into a password: "ribeirao" for "Ribeirão".
  for (const word of [...words]) words.add(word.normalize('NFD').replace(/\p{M}/gu, ''))
  return [...words]
}

/**
 * POST /api/auth/password-strength (common/api/auth.ts): the strength estimate of a password being
 * chosen, asked by the forms as it is typed (client/src/forms/password-strength-hint.tsx). Public
 * (registration, a reset link and an invitation choose passwords before any sign-in), counted per
 * address apart from the sign-ins (typingLimit). The password is in the body, never in the URL or the log, is not
 * stored, and the answer is not cached.
 */
export default guardedRoutes([typingLimit], async (app) => {
  const estimator = new StrengthEstimator()
  app.addHook('onClose', () => estimator.close())

  app.post(
    '/password-strength',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Estimate how hard a new password is to guess',
        description:
          'Public. How hard a password being chosen is to guess (zxcvbn-ts with its Brazilian Portuguese dictionaries, the first 32 characters), with advice in pt-BR, and whether the password policy will refuse it as common. Advice only: the routes that set a password apply the policy. Nothing is stored or logged. 503 with Retry-After when too many estimates are waiting.',
        body: PasswordStrengthBodySchema,
        response: { 200: PasswordStrengthSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      const { password, userInputs = [] } = request.body
      const strength = await estimator.estimate(password, guessableWords(userInputs))
      const common = isCommonPassword(password)
      reply.header('cache-control', 'no-store')
      // A password the policy refuses is shown as the weakest, whatever zxcvbn thought of it.
      return { ...strength, score: common ? 0 : strength.score, common }
    },
  )
})
