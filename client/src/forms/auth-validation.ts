import { messages } from '../words/messages'
import { isValidEmail } from '../../../common/account-rules'
import { nameProblem } from '../../../common/name-rules'
import {
  PASSWORD_PROBLEM_MESSAGES,
  passwordProblem,
  type PasswordContext,
} from '../../../common/password-policy'

/** Validation of the public forms, run on submit: field name → pt-BR message. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>

const text = messages.forms

export function emailError(email: string): string | undefined {
  if (email.trim() === '') return text.emailRequired
  if (!isValidEmail(email)) return text.emailInvalid
  return undefined
}

/** The shared rules (common/password-policy.ts); the list of common passwords is the server's. */
function newPasswordError(password: string, context: PasswordContext = {}): string | undefined {
  if (password === '') return text.passwordRequired
  const problem = passwordProblem(password, context)
  return problem ? PASSWORD_PROBLEM_MESSAGES[problem] : undefined
}

function confirmationError(password: string, confirmation: string): string | undefined {
  if (confirmation === '') return text.confirmRequired
  if (confirmation !== password) return text.passwordsDiffer
  return undefined
}

function only<Field extends string>(errors: Record<Field, string | undefined>): FieldErrors<Field> {
  return Object.fromEntries(
    Object.entries(errors).filter(([, message]) => message !== undefined),
  ) as FieldErrors<Field>
}

export type LoginField = 'email' | 'password'
export function validateLogin(values: Record<LoginField, string>): FieldErrors<LoginField> {
  // No length rule here: the server judges the password, and a hint would help a guesser.
  return only({
    email: emailError(values.email),
    password: values.password === '' ? text.passwordRequired : undefined,
  })
}

export type RecoverField = 'email'
export function validateRecover(values: Record<RecoverField, string>): FieldErrors<RecoverField> {
  return only({ email: emailError(values.email) })
}

export type RegisterField = 'name' | 'email' | 'password' | 'confirmPassword'
export function validateRegister(
  values: Record<RegisterField, string>,
): FieldErrors<RegisterField> {
  return only({
    name: nameProblem(values.name) ?? undefined,
    email: emailError(values.email),
    password: newPasswordError(values.password, { email: values.email, name: values.name }),
    confirmPassword: confirmationError(values.password, values.confirmPassword),
  })
}

export type ResetField = 'password' | 'confirmPassword'
export function validateReset(values: Record<ResetField, string>): FieldErrors<ResetField> {
  return only({
    password: newPasswordError(values.password),
    confirmPassword: confirmationError(values.password, values.confirmPassword),
  })
}

export type ChangePasswordField = 'currentPassword' | 'password' | 'confirmPassword'
export function validateChangePassword(
  values: Record<ChangePasswordField, string>,
): FieldErrors<ChangePasswordField> {
  return only({
    currentPassword: values.currentPassword === '' ? text.passwordRequired : undefined,
    password: newPasswordError(values.password, { current: values.currentPassword }),
    confirmPassword: confirmationError(values.password, values.confirmPassword),
  })
}
