import { useDeferredValue, useMemo } from 'react'
import { messages } from '../words/messages'
import { estimateStrength } from './password-strength'

const text = messages.forms.strength

/**
 * How hard the password being typed is to guess (zxcvbn-ts): advice, not a rule. The rules are
 * common/password-policy.ts, and the server refuses what its list of common passwords holds.
 * This module and zxcvbn-ts with its dictionaries load only when a new password is first typed
 * (new-password-fields.tsx imports it lazily), so no public page's cold load carries them.
 */
export default function PasswordStrengthHint({
  password,
  userInputs,
}: {
  password: string
  userInputs: string[]
}) {
  // Typing stays responsive: the estimate follows at React's pace, not on every key.
  const deferred = useDeferredValue(password)
  const strength = useMemo(
    () => (deferred === '' ? null : estimateStrength(deferred, userInputs)),
    [deferred, userInputs],
  )
  if (strength === null) return null
  return (
    <div className="form-text" aria-live="polite">
      {text.label(text.levels[strength.score])}
      {strength.warning ? ` ${strength.warning}` : ''}
    </div>
  )
}
