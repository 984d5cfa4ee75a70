import { Type, type Static } from 'typebox'

/**
 * The provisioning tokens (SCIM, docs/provisioning.md): `POST /api/scim-tokens {name}` answers
 * the token once; the list never holds it (only its SHA-256 is kept). Under provisioning.manage.
 */

const closed = { additionalProperties: false } as const

/** A token's name: who it is for ("Entra ID", "Okta"), said in the audit log as who acted. */
export const SCIM_TOKEN_NAME_MAX_LENGTH = 60

export const ScimTokenBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: SCIM_TOKEN_NAME_MAX_LENGTH }) },
  closed,
)
export type ScimTokenBody = Static<typeof ScimTokenBodySchema>

export const ScimTokenCreatedSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    token: Type.String({ description: 'shown this once; only its SHA-256 is kept' }),
  },
  closed,
)
export type ScimTokenCreated = Static<typeof ScimTokenCreatedSchema>

export const ScimTokenItemSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String({ description: 'the name of who made it' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'the last call to /scim/v2 with it, to the minute; null: never used',
    }),
  },
  closed,
)
export type ScimTokenItem = Static<typeof ScimTokenItemSchema>

export const ScimTokenListSchema = Type.Object(
  {
    baseUrl: Type.String({
      format: 'uri',
      description: "the SCIM base URL a directory is given: the panel's PUBLIC_URL + /scim/v2",
    }),
    tokens: Type.Array(ScimTokenItemSchema),
  },
  closed,
)
export type ScimTokenList = Static<typeof ScimTokenListSchema>
