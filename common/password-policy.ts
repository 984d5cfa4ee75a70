import { isStorableText } from './text-rules'

/**
 * The password rules of NIST SP 800-63B (§3.1.1.2), the same for registration, reset, change and
 * invitation, on both sides: 8 to 128 characters, any characters a person can type (no
 * composition rules), and not a password that is common or breached, nor the account's e-mail,
 * name or current password. The list of common passwords is large and lives on the server
 * (server/accounts/common-passwords.ts); the forms check the rest before sending.
 */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

export type PasswordProblem =
  | 'too_short'
  | 'too_long'
  | 'unstorable'
  | 'same_as_email'
  | 'same_as_name'
  | 'same_as_current'
  | 'common'

export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  too_short: `A senha deve ter pelo menos ${PASSWORD_MIN_LENGTH} caracteres.`,
  too_long: `A senha deve ter no máximo ${PASSWORD_MAX_LENGTH} caracteres.`,
  unstorable: 'A senha contém caracteres não permitidos.',
  same_as_email: 'A senha não pode ser o seu e-mail.',
  same_as_name: 'A senha não pode ser o seu nome.',
  same_as_current: 'A nova senha deve ser diferente da atual.',
  common: 'Esta senha é muito comum ou já apareceu em vazamentos. Escolha outra.',
}

/** Length in characters as people count them (code points), not UTF-16 units. */
export function passwordLength(password: string): number {
  return [...password].length
}

export interface PasswordContext {
  email?: string
  name?: string
  /** The current password, when the one who sets the new one typed it. */
  current?: string
}

const folded = (value: string) => value.normalize('NFC').trim().toLowerCase()

/**
 * The first rule the password breaks, or null. `isCommon` answers for the list of common and
 * breached passwords; without it that rule is left to the server.
 */
export function passwordProblem(
  password: string,
  context: PasswordContext = {},
  isCommon?: (password: string) => boolean,
): PasswordProblem | null {
  const length = passwordLength(password)
  if (length < PASSWORD_MIN_LENGTH) return 'too_short'
  if (length > PASSWORD_MAX_LENGTH) return 'too_long'
  if (!isStorableText(password)) return 'unstorable'
  const candidate = folded(password)
  if (context.email) {
    const email = folded(context.email)
    const localPart = email.split('@')[0] ?? ''
    if (candidate === email || (localPart.length > 0 && candidate === localPart)) {
      return 'same_as_email'
    }
  }
  if (context.name) {
    const name = folded(context.name)
    if (candidate === name || candidate === name.replace(/\s+/g, '')) return 'same_as_name'
  }
  if (context.current !== undefined && password === context.current) return 'same_as_current'
  if (isCommon?.(password)) return 'common'
  return null
}
