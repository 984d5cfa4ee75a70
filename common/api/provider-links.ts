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

/**
 * An admin's link to connect a provider (POST /api/staff/:id/provider-link-invitations): mailed
 * to the person, it links the identity they sign in with at that provider to this account, even
 * when the provider does not vouch for the e-mail (docs/single-sign-on.md, "An admin's link").
 */
export const ProviderLinkInvitationBodySchema = Type.Object(
  {
    provider: Type.String({
      pattern: '^[a-z][a-z0-9]{0,31}$',
      description: "a provider of AUTH_PROVIDERS, by its name ('corp')",
    }),
  },
  closed,
)
export type ProviderLinkInvitationBody = Static<typeof ProviderLinkInvitationBodySchema>

/** The mailed link's token (`#/vincular?token=…`). */
export const LinkInvitationTokenBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 64 }) },
  closed,
)
export type LinkInvitationTokenBody = Static<typeof LinkInvitationTokenBodySchema>

/** What the link's page says before the person goes to the provider. */
export const LinkInvitationSchema = Type.Object(
  {
    name: Type.String({ description: "the account's name" }),
    email: Type.String({ description: "the account's e-mail" }),
    provider: Type.String({ description: "AUTH_PROVIDERS' name" }),
    label: Type.String({ description: 'the provider as the login page names it ("Google")' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  closed,
)
export type LinkInvitation = Static<typeof LinkInvitationSchema>

/** Where the browser goes next: the provider's authorization endpoint. */
export const LinkInvitationStartSchema = Type.Object(
  { url: Type.String({ description: "the provider's sign-in page, to open in this tab" }) },
  closed,
)
export type LinkInvitationStart = Static<typeof LinkInvitationStartSchema>
