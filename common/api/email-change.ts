import { Type, type Static } from 'typebox'

/**
 * Changing one's e-mail (issue 30), confirmed from the new address:
 *
 * | call                                         | answers                                           |
 * | -------------------------------------------- | ------------------------------------------------- |
 * | POST /api/me/email {email,password} (Bearer) | 202, the same whether or not the address is free; 400 invalid_email / same_email / wrong_password; 429 |
 * | POST /api/auth/email/confirm {token}         | 200 EmailChangeAnswer; 400 invalid_or_expired_email_link |
 * | POST /api/auth/email/cancel {token}          | 204; 400 invalid_or_expired_email_link            |
 * | POST /api/staff/:id/email {email} (admins)   | 202: the same confirmation, asked by an admin; 404 |
 *
 * Until the new address confirms, the old one stays and signs in. A passkey-only person has a
 * password all the same (an invitation's or a provider's account sets none they know): they
 * set one with "Esqueci minha senha" first, so the change is always confirmed by the password
 * and, for the new address, by its mailbox.
 */

const closed = { additionalProperties: false } as const

export const EmailChangeBodySchema = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  closed,
)
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
