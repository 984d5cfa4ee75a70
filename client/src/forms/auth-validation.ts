import { messages } from '../messages'
import {
  isValidEmail,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordLength,
} from '../../../common/account-rules'

/** Validation of the public forms, run on submit: field name → pt-BR message. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>

const text = messages.forms

function emailError(email: string): string | undefined {
  if (email.trim() === '') return text.emailRequired
  if (!isValidEmail(email)) return text.emailInvalid
  return undefined
}

function newPasswordError(password: string): string | undefined {
  if (password === '') return text.passwordRequired
  const length = passwordLength(password)
  if (length < PASSWORD_MIN_LENGTH) return text.passwordTooShort(PASSWORD_MIN_LENGTH)
  if (length > PASSWORD_MAX_LENGTH) return text.passwordTooLong(PASSWORD_MAX_LENGTH)
  return undefined
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
  const name = values.name.trim()
  return only({
    name:
      name === ''
        ? text.nameRequired
        : name.length > NAME_MAX_LENGTH
          ? text.nameTooLong(NAME_MAX_LENGTH)
          : undefined,
    email: emailError(values.email),
    password: newPasswordError(values.password),
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
    password: newPasswordError(values.password),
    confirmPassword: confirmationError(values.password, values.confirmPassword),
  })
}
