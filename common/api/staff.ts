import { Type, type Static } from 'typebox'
import { PublicUserSchema } from './account'

/** Staff administration (DESIGN.md, "Admins", under /api/staff): admins only. */

const closed = { additionalProperties: false } as const

export const StaffListSchema = Type.Object({ accounts: Type.Array(PublicUserSchema) }, closed)
export type StaffList = Static<typeof StaffListSchema>

export const AccountIdParamsSchema = Type.Object(
  { id: Type.String({ format: 'uuid', maxLength: 36 }) },
  closed,
)
export type AccountIdParams = Static<typeof AccountIdParamsSchema>

export const StatusChangeBodySchema = Type.Object(
  { status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]) },
  closed,
)
export type StatusChangeBody = Static<typeof StatusChangeBodySchema>
