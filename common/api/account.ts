import { Type, type Static } from 'typebox'

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
