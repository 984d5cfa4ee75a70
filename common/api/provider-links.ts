import { Type, type Static } from 'typebox'

/**
 * Minha conta's sign-in providers (GET /api/me/providers, DELETE /api/me/providers/:id): the
 * providers a person signs in with (docs/single-sign-on.md), and whether each may be unlinked.
 */
const closed = { additionalProperties: false } as const

export const ProviderLinkSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    provider: Type.String({ description: "AUTH_PROVIDERS' name" }),
    label: Type.String({ description: 'the provider as the login page names it ("Google")' }),
    linkedAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    unlinkable: Type.Boolean({
      description: 'another way to sign in remains (a password, a passkey, another provider)',
    }),
  },
  closed,
)
export type ProviderLink = Static<typeof ProviderLinkSchema>

export const ProviderLinkListSchema = Type.Object(
  {
    providers: Type.Array(ProviderLinkSchema),
    passwordSignIn: Type.Boolean({
      description:
        'this account signs in with a password of its own (it has one, and PASSWORD_SIGN_IN lets it): Minha conta offers to change it only then',
    }),
  },
  closed,
)
export type ProviderLinkList = Static<typeof ProviderLinkListSchema>

export const ProviderLinkParamsSchema = Type.Object(
  { id: Type.String({ format: 'uuid', maxLength: 36 }) },
  closed,
)
