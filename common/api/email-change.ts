import { Type, type Static } from 'typebox'
import { CurrentPasswordField, SecondFactorCodeField } from './own-confirmation'

/**
 * Changing one's e-mail (issue 30), confirmed from the new address:
 *
 * | call                                         | answers                                           |
 * | -------------------------------------------- | ------------------------------------------------- |
 * | POST /api/me/email {email,password} or {email,code} (Bearer) | 202, the same whether or not the address is free; 400 invalid_email / same_email / wrong_password / wrong_code, invalid_input with both or neither; 429 |
 * | POST /api/auth/email/confirm {token}         | 200 EmailChangeAnswer; 400 invalid_or_expired_email_link |
 * | POST /api/auth/email/cancel {token}          | 204; 400 invalid_or_expired_email_link            |
 * | POST /api/staff/:id/email {email} (admins)   | 202: the same confirmation, asked by an admin; 404 |
 *
 * Until the new address confirms, the old one stays and signs in. The person confirms with
 * their password or, instead, a code of their authenticator app or a recovery code
 * (common/api/own-confirmation.ts): someone without a password of their own (a provider's
 * account, or PASSWORD_SIGN_IN=off) who has the app uses it. A passkey does not confirm here: a
 * passkey-only person with a password sets it with "Esqueci minha senha" first. The new address
 * always confirms by its mailbox.
 */

const closed = { additionalProperties: false } as const

const NewEmailField = Type.String({ minLength: 1, maxLength: 320 })

/** The new address, and exactly one of the password or a code (common/api/own-confirmation.ts). */
export const EmailChangeBodySchema = Type.Union([
  Type.Object({ email: NewEmailField, password: CurrentPasswordField }, closed),
  Type.Object({ email: NewEmailField, code: SecondFactorCodeField }, closed),
])
export type EmailChangeBody = Static<typeof EmailChangeBodySchema>

export const AdminEmailChangeBodySchema = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }) },
  closed,
)
export type AdminEmailChangeBody = Static<typeof AdminEmailChangeBodySchema>

export const EmailLinkBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 64 }) },
  closed,
)
export type EmailLinkBody = Static<typeof EmailLinkBodySchema>

export const EmailChangeAnswerSchema = Type.Object(
  { email: Type.String({ description: 'the account’s e-mail from now on' }) },
  closed,
)
export type EmailChangeAnswer = Static<typeof EmailChangeAnswerSchema>
