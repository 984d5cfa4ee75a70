import { Type, type Static } from 'typebox'
import { AccessSchema } from './roles'

/**
 * An account as the API shows it (never its password hash): the schema the server validates and
 * serialises with, and the type both sides use. Only the fields listed here can leave the server.
 */

export const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('staff')])
export const AccountStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('active'),
  Type.Literal('disabled'),
])

export const PublicUserSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    status: AccountStatusSchema,
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
  },
  { additionalProperties: false },
)

export type Role = Static<typeof RoleSchema>
export type AccountStatus = Static<typeof AccountStatusSchema>
export type PublicUser = Static<typeof PublicUserSchema>

/** `{user}`: the answer of every call that returns one account. */
export const UserAnswerSchema = Type.Object(
  { user: PublicUserSchema },
  { additionalProperties: false },
)
export type UserAnswer = Static<typeof UserAnswerSchema>

/**
 * The signed-in person, as GET /api/auth/me answers: their account and, when MFA_REQUIRED covers
 * them and they have no second factor yet, `mfaSetupRequired: true` (absent otherwise): until
 * they set one up, every other call answers 403 mfa_setup_required.
 */
export const SignedInUserSchema = Type.Object(
  {
    ...PublicUserSchema.properties,
    access: AccessSchema,
    mfaSetupRequired: Type.Optional(
      Type.Literal(true, {
        description: 'a second factor must be set up (TOTP or a passkey) before anything else',
      }),
    ),
  },
  { additionalProperties: false },
)
export type SignedInUser = Static<typeof SignedInUserSchema>

/** GET /api/auth/me's answer. */
export const MeAnswerSchema = Type.Object(
  { user: SignedInUserSchema },
  { additionalProperties: false },
)
export type MeAnswer = Static<typeof MeAnswerSchema>
