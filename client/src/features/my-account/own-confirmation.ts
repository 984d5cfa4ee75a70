import type { FieldErrors } from '../../forms/auth-validation'

/**
 * How this person can confirm a change of their own account (common/api/own-confirmation.ts):
 * with a password of their own (GET /api/me/providers' `passwordSignIn`), with the authenticator
 * app (GET /api/me/mfa's `totp`), or both. Passkeys do not confirm here (docs/personal-data.md).
 */
export interface ConfirmationWays {
  password: boolean
  authenticator: boolean
}

export const canConfirm = (ways: ConfirmationWays) => ways.password || ways.authenticator

export const confirmationWords = {
  password: 'Senha atual',
  passwordRequired: 'Informe sua senha atual.',
  code: 'Código do autenticador',
  codeHint:
    'Os 6 dígitos que o aplicativo autenticador mostra agora, ou um dos seus códigos de recuperação.',
  codeRequired: 'Informe o código.',
  codeFormat: 'O código do aplicativo tem 6 dígitos.',
  useCode: 'Usar código do autenticador',
  usePassword: 'Usar a senha atual',
}
const text = confirmationWords

/**
 * Whether the form asks for a code: when the person has only the app, or has both and chose it.
 * The password otherwise (also while GET /api/me/mfa has not answered).
 */
export const confirmsWithCode = (ways: ConfirmationWays, chose: 'password' | 'code') =>
  ways.authenticator && (!ways.password || chose === 'code')

/**
 * What a form sends for the field it shows: the password as typed; a code trimmed, and an app's
 * code without the spaces people type in the middle ("123 456").
 */
export function confirmationBody(
  usingCode: boolean,
  password: string,
  code: string,
): { password: string } | { code: string } {
  if (!usingCode) return { password }
  const compact = code.replace(/\s+/g, '')
  return { code: /^[0-9]+$/.test(compact) ? compact : code.trim() }
}

/** The field's complaint before anything is sent: empty, or digits that are not six. */
export function confirmationProblem(
  usingCode: boolean,
  password: string,
  code: string,
): string | undefined {
  if (!usingCode) return password === '' ? text.passwordRequired : undefined
  const compact = code.replace(/\s+/g, '')
  if (compact === '') return text.codeRequired
  return /^[0-9]+$/.test(compact) && compact.length !== 6 ? text.codeFormat : undefined
}

/** validate() of a form with the field: the complaint on the field shown. */
export function validateConfirmation<Field extends string>(
  choice: { usingCode: boolean },
  fields: { password: Field; code: Field },
  values: Record<Field, string>,
): FieldErrors<Field> {
  const problem = confirmationProblem(
    choice.usingCode,
    values[fields.password],
    values[fields.code],
  )
  if (problem === undefined) return {}
  return { [choice.usingCode ? fields.code : fields.password]: problem } as FieldErrors<Field>
}
