import { Type, type Static } from 'typebox'
import { NAME_MAX_LENGTH } from '../name-rules'
import { PASSWORD_MAX_LENGTH } from '../password-policy'
import { PublicUserSchema } from './account'

/**
 * The sign-in API (DESIGN.md, "Sign-in", under /api/auth): request bodies and answers. The
 * server validates and serialises with these schemas and takes its handlers' types from them;
 * the client imports only the types (`import type`), so none of this reaches the bundle.
 */

const closed = { additionalProperties: false } as const

/**
 * Any string of an e-mail's size (RFC 5321's 320 characters for the whole address): whether it is
 * a valid address is the route's word, so the person reads "Informe um e-mail válido." rather
 * than a schema message.
 */
const EmailField = Type.String({ minLength: 1, maxLength: 320 })
/** Sign-in accepts any password up to a bound: old ones may predate today's rules. */
const AnyPasswordField = Type.String({ minLength: 1, maxLength: 1024 })
/**
 * The rules of a new password (common/password-policy.ts) are the service's, with their pt-BR
 * messages; the schema only bounds the size (in UTF-16 units, so a little over the rule's).
 */
const NewPasswordField = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH * 4 })

export const SignInBodySchema = Type.Object(
  { email: EmailField, password: AnyPasswordField },
  closed,
)
export type SignInBody = Static<typeof SignInBodySchema>

export const SignedInSchema = Type.Object(
  {
    token: Type.String({ description: 'the session token: send it as `Authorization: Bearer`' }),
    user: PublicUserSchema,
  },
  closed,
)
export type SignedIn = Static<typeof SignedInSchema>

export const RegisterBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 4 }),
    email: EmailField,
    password: NewPasswordField,
  },
  closed,
)
export type RegisterBody = Static<typeof RegisterBodySchema>

export const RegisteredSchema = Type.Object({ status: Type.Literal('pending') }, closed)
export type Registered = Static<typeof RegisteredSchema>

export const RecoveryBodySchema = Type.Object({ email: EmailField }, closed)
export type RecoveryBody = Static<typeof RecoveryBodySchema>

export const ResetBodySchema = Type.Object(
  { token: Type.String({ maxLength: 64 }), password: NewPasswordField },
  closed,
)
export type ResetBody = Static<typeof ResetBodySchema>

/** A mailed reset link's token, checked without using it up (the page asks when it opens). */
export const ResetCheckBodySchema = Type.Object({ token: Type.String({ maxLength: 64 }) }, closed)
export type ResetCheckBody = Static<typeof ResetCheckBodySchema>

export const ChangePasswordBodySchema = Type.Object(
  { currentPassword: AnyPasswordField, newPassword: NewPasswordField },
  closed,
)
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>
