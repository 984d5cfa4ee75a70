import { PASSWORD_PROBLEM_MESSAGES } from '../../../common/password-policy'
import type { PasswordStrength } from '../../../common/api/auth'
import { useEffect, useState } from 'react'
import { messages } from '../words/messages'
import { estimatePasswordStrength } from './password-strength-api'

const text = messages.forms.strength

/** Typing pauses this long before the password is estimated: one call per pause, not per key. */
export const ESTIMATE_AFTER_MS = 250

/**
 * How hard the password being typed is to guess: advice, not a rule. The server estimates it
 * (server/features/password-strength/, zxcvbn-ts with its pt-BR dictionaries, which are too
 * heavy to download) and says whether the policy will refuse it as common; the rules themselves
 * are common/password-policy.ts, applied when the form is sent. When the estimate cannot be had
 * (offline, too many at once) the hint says nothing rather than something stale.
 */
export default function PasswordStrengthHint({
  password,
  userInputs,
}: {
  password: string
  userInputs: string[]
}) {
  const [answer, setAnswer] = useState<PasswordStrength | null>(null)
  // The inputs are compared by content: a new array with the same words is not a new question.
  const inputs = userInputs.join('\n')
  useEffect(() => {
    // The form shows this hint only once something is typed (account-fields.tsx).
    if (password === '') return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      estimatePasswordStrength(password, inputs === '' ? [] : inputs.split('\n'), controller.signal)
        .then(setAnswer)
        .catch(() => {
          if (!controller.signal.aborted) setAnswer(null)
        })
    }, ESTIMATE_AFTER_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [password, inputs])

  if (answer === null) return null
  const advice = answer.common ? PASSWORD_PROBLEM_MESSAGES.common : answer.warning
  return (
    <div className="form-text" aria-live="polite">
      {text.label(text.levels[answer.score] ?? text.levels[0])}
      {advice ? ` ${advice}` : ''}
    </div>
  )
}
