import { Type, type Static } from 'typebox'
import { NAME_MAX_LENGTH } from '../name-rules'
import { PASSWORD_MAX_LENGTH } from '../password-policy'
import { PublicUserSchema } from './account'
import { AuthenticationCredentialSchema } from './webauthn'

/**
 * The sign-in API (docs/architecture.md, "Fixed contracts", under /api/auth): request bodies and answers. The
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

/**
 * POST /login/mfa's 200: signed in; after a recovery code, also how many codes are left, so the
 * person can be told (and urged to make new ones before they run out).
 */
export const SignedInWithCodeSchema = Type.Object(
  {
    token: SignedInSchema.properties.token,
    user: SignedInSchema.properties.user,
    recoveryCodesLeft: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'after a recovery code only: the unused recovery codes the account has left',
      }),
    ),
  },
  closed,
)
export type SignedInWithCode = Static<typeof SignedInWithCodeSchema>

/** The second factors a sign-in may finish with. */
export const MfaMethodSchema = Type.Union([
  Type.Literal('totp'),
  Type.Literal('recovery_code'),
  Type.Literal('passkey'),
])
export type MfaMethod = Static<typeof MfaMethodSchema>

/**
 * The password was right and the account has a second factor: no token yet. The challenge goes
 * back with a code (POST /login/mfa) or a passkey (POST /passkey/options, then POST /passkey);
 * it lives 5 minutes and allows 5 codes.
 */
export const MfaRequiredSchema = Type.Object(
  {
    mfa: Type.Object(
      {
        challenge: Type.String({ description: 'opaque; send it back with the code' }),
        methods: Type.Array(MfaMethodSchema, { minItems: 1 }),
      },
      closed,
    ),
  },
  closed,
)
export type MfaRequired = Static<typeof MfaRequiredSchema>

/** POST /login's 200: signed in, or a second factor is asked for. */
export const SignInAnswerSchema = Type.Union([SignedInSchema, MfaRequiredSchema])
export type SignInAnswer = Static<typeof SignInAnswerSchema>

const ChallengeField = Type.String({ minLength: 1, maxLength: 64 })

/** A 6-digit TOTP code, or a recovery code (`xxxxx-xxxxx`; spaces and case do not matter). */
export const MfaCodeBodySchema = Type.Object(
  { challenge: ChallengeField, code: Type.String({ minLength: 1, maxLength: 64 }) },
  closed,
)
export type MfaCodeBody = Static<typeof MfaCodeBodySchema>

/**
 * POST /passkey/options: no body (or `{}`) for a sign-in with a passkey alone; `{challenge}` (a
 * login's `mfa.challenge`) to use a passkey of that account as its second factor.
 */
export const PasskeyOptionsBodySchema = Type.Union([
  Type.Object({ challenge: Type.Optional(ChallengeField) }, closed),
  Type.Null(),
])
export type PasskeyOptionsBody = Static<typeof PasskeyOptionsBodySchema>

/** POST /passkey: the browser's answer to those options (and the same `challenge`, if any). */
export const PasskeySignInBodySchema = Type.Object(
  { response: AuthenticationCredentialSchema, challenge: Type.Optional(ChallengeField) },
  closed,
)
export type PasskeySignInBody = Static<typeof PasskeySignInBodySchema>

export const RegisterBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 4 }),
    email: EmailField,
    password: NewPasswordField,
    teamId: Type.Optional(
      Type.String({
        format: 'uuid',
        maxLength: 36,
        description:
          'an open team of GET /api/auth/teams: the registration then waits for that team’s manager or an admin',
      }),
    ),
  },
  closed,
)
export type RegisterBody = Static<typeof RegisterBodySchema>

/** GET /api/auth/teams: the teams open to registration, id and name only. */
export const OpenTeamsSchema = Type.Object(
  {
    teams: Type.Array(
      Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }, closed),
    ),
  },
  closed,
)
export type OpenTeams = Static<typeof OpenTeamsSchema>

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

/**
 * POST /password-reset/check's 200: the link works, and this is the account it sets a password
 * for, so the page can say whose it is. Told only to the holder of a live link, who had it by mail.
 */
export const ResetCheckAnswerSchema = Type.Object(
  { email: Type.String({ description: "the account's e-mail" }) },
  closed,
)
export type ResetCheckAnswer = Static<typeof ResetCheckAnswerSchema>

export const ChangePasswordBodySchema = Type.Object(
  { currentPassword: AnyPasswordField, newPassword: NewPasswordField },
  closed,
)
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>

/**
 * A password being chosen, for the strength estimate the forms show as it is typed (POST
 * /password-strength). `userInputs` are what the person typed elsewhere in the form (the name, the
 * e-mail): a password made of them is easy to guess.
 */
export const PasswordStrengthBodySchema = Type.Object(
  {
    password: NewPasswordField,
    userInputs: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 4 })),
  },
  closed,
)
export type PasswordStrengthBody = Static<typeof PasswordStrengthBodySchema>

export const PasswordStrengthSchema = Type.Object(
  {
    score: Type.Integer({
      minimum: 0,
      maximum: 4,
      description: 'how hard it is to guess: 0 (at once) to 4 (very hard), by zxcvbn',
    }),
    warning: Type.Union([Type.String(), Type.Null()], {
      description: "zxcvbn's advice in pt-BR, when it has some",
    }),
    common: Type.Boolean({
      description:
        'the password is on the list of common and breached passwords: setting it will be refused',
    }),
  },
  closed,
)
export type PasswordStrength = Static<typeof PasswordStrengthSchema>
/** A sign-in provider's name, as in AUTH_PROVIDERS (docs/single-sign-on.md). */
export const ProviderParamsSchema = Type.Object(
  { name: Type.String({ pattern: '^[a-z][a-z0-9]{0,31}$' }) },
  closed,
)
export type ProviderParams = Static<typeof ProviderParamsSchema>

/** GET /oidc/:name/start: where the person was going (the login page's `redirect`). */
export const ProviderStartQuerySchema = Type.Object(
  { redirect: Type.Optional(Type.String({ maxLength: 512 })) },
  closed,
)
export type ProviderStartQuery = Static<typeof ProviderStartQuerySchema>

/** POST /oidc/exchange: the hand-off code the callback put in the login page's address. */
export const ProviderExchangeBodySchema = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64 }) },
  closed,
)
export type ProviderExchangeBody = Static<typeof ProviderExchangeBodySchema>
