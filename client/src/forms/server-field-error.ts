import { INVALID_EMAIL_MESSAGE } from '../../../common/account-rules'
import { NAME_PROBLEM_MESSAGES } from '../../../common/name-rules'
import { PASSWORD_PROBLEM_MESSAGES } from '../../../common/password-policy'

/** What a server's refusal of a form can be about: one of the account's fields. */
export type FieldKind = 'name' | 'email' | 'password'

const PASSWORD_MESSAGES: ReadonlySet<string> = new Set(Object.values(PASSWORD_PROBLEM_MESSAGES))
const NAME_MESSAGES: ReadonlySet<string> = new Set(Object.values(NAME_PROBLEM_MESSAGES))

/**
 * Which field a server's refusal is about, so the form says it under that field (and it goes when
 * the field changes) instead of in a banner that stays above a now-good value. The error shape
 * is `{code, message}` and a rule's refusal is a 400 invalid_input, so the message tells: the
 * server words them with the same rules' texts (common/password-policy.ts, common/name-rules.ts,
 * common/account-rules.ts). Anything else is the whole form's, as before.
 */
export function fieldKindOf(code: string, message: string): FieldKind | undefined {
  if (code === 'invalid_email' || code === 'email_taken') return 'email'
  if (code !== 'invalid_input') return undefined
  if (PASSWORD_MESSAGES.has(message)) return 'password'
  if (NAME_MESSAGES.has(message)) return 'name'
  if (message === INVALID_EMAIL_MESSAGE) return 'email'
  return undefined
}
