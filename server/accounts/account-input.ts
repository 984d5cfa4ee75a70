import { nameProblem, normalizeName } from '../../common/name-rules'
import {
  PASSWORD_PROBLEM_MESSAGES,
  passwordProblem,
  type PasswordContext,
} from '../../common/password-policy'
import { HttpError } from '../http/errors'
import { isCommonPassword } from './common-passwords'

export const invalidInput = (message: string) => new HttpError(400, 'invalid_input', message)

/** The password rules of common/password-policy.ts with the server's list of common passwords. */
export function checkNewPassword(password: string, context: PasswordContext): void {
  const problem = passwordProblem(password, context, isCommonPassword)
  if (problem) throw invalidInput(PASSWORD_PROBLEM_MESSAGES[problem])
}

/** A name to store, by the rules of registration (common/name-rules.ts): 400 invalid_input. */
export function acceptedName(raw: string): string {
  const problem = nameProblem(raw)
  if (problem) throw invalidInput(problem)
  return normalizeName(raw)
}
