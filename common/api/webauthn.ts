import { Type, type Static } from 'typebox'

/**
 * The WebAuthn messages passkeys travel in, in the JSON form @simplewebauthn/browser and
 * /server exchange (binary fields as base64url text). Option answers list the fields the server
 * sends; credentials the browser posts are left open beyond the fields the server reads, since
 * browsers add new ones (extensions, hints) and refusing them would refuse a good passkey.
 */

const closed = { additionalProperties: false } as const
const Base64Url = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$' })

const CredentialDescriptorSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('public-key'),
    transports: Type.Optional(Type.Array(Type.String())),
  },
  closed,
)

/** What `navigator.credentials.create()` needs (startRegistration's `optionsJSON`). */
export const CreationOptionsSchema = Type.Object(
  {
    rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }, closed),
    user: Type.Object(
      { id: Type.String(), name: Type.String(), displayName: Type.String() },
      closed,
    ),
    challenge: Type.String(),
    pubKeyCredParams: Type.Array(
      Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') }, closed),
    ),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Optional(Type.Array(CredentialDescriptorSchema)),
    authenticatorSelection: Type.Optional(
      Type.Object(
        {
          authenticatorAttachment: Type.Optional(Type.String()),
          residentKey: Type.Optional(Type.String()),
          requireResidentKey: Type.Optional(Type.Boolean()),
          userVerification: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
    hints: Type.Optional(Type.Array(Type.String())),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) }, closed)),
  },
  closed,
)
export type CreationOptions = Static<typeof CreationOptionsSchema>

/** What `navigator.credentials.get()` needs (startAuthentication's `optionsJSON`). */
export const RequestOptionsSchema = Type.Object(
  {
    challenge: Type.String(),
    timeout: Type.Optional(Type.Integer()),
    rpId: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(Type.Array(CredentialDescriptorSchema)),
    userVerification: Type.Optional(Type.String()),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  closed,
)
export type RequestOptions = Static<typeof RequestOptionsSchema>

/** startRegistration's result: a new passkey. */
export const RegistrationCredentialSchema = Type.Object({
  id: Base64Url(1024),
  rawId: Base64Url(1024),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(4096),
    attestationObject: Base64Url(65536),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Object({}),
})
export type RegistrationCredential = Static<typeof RegistrationCredentialSchema>

/** startAuthentication's result: a passkey's signature over the server's challenge. */
export const AuthenticationCredentialSchema = Type.Object({
  id: Base64Url(1024),
  rawId: Base64Url(1024),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(4096),
    authenticatorData: Base64Url(4096),
    signature: Base64Url(1024),
    userHandle: Type.Optional(Type.String({ maxLength: 128 })),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Object({}),
})
export type AuthenticationCredential = Static<typeof AuthenticationCredentialSchema>
