import { Type, type Static } from 'typebox'
import { NAME_MAX_LENGTH } from '../name-rules'
import { CreationOptionsSchema, RegistrationCredentialSchema } from './webauthn'

/**
 * The signed-in user's own account (docs/architecture.md, "Fixed contracts", under /api/me, Bearer):
 * sessions, the TOTP second factor and its recovery codes, passkeys.
 *
 * | call                                | answers                                                 |
 * | ----------------------------------- | ------------------------------------------------------- |
 * | PATCH / {name}                      | 200 UserAnswer (the name corrected, audited); 400       |
 * | GET /session                        | 200 CurrentSession (this session's limits)              |
 * | POST /session/renew                 | 200 CurrentSession (slides the idle end now)            |
 * | GET /sessions                       | 200 SessionList                                         |
 * | DELETE /sessions/:id · /sessions    | 204: that one ends · every one but this one ends; 404   |
 * | GET /mfa                            | 200 MfaStatus                                           |
 * | POST /totp                          | 200 TotpSetup; 409 mfa_already_on (confirmed already)   |
 * | POST /totp/confirm {code}           | 200 RecoveryCodes; 400 invalid_code / no_pending_totp   |
 * | DELETE /totp {password}             | 204; 400 wrong_password; 429                            |
 * | POST /recovery-codes {password}     | 200 RecoveryCodes (the old ones stop working); 400; 409 |
 * | GET /passkeys                       | 200 PasskeyList                                         |
 * | POST /passkeys/options              | 200 creation options (for startRegistration)            |
 * | POST /passkeys {response,name}      | 201 PasskeyAnswer; 400 invalid_passkey                  |
 * | PATCH /passkeys/:id {name}          | 200 PasskeyAnswer; 404                                  |
 * | DELETE /passkeys/:id                | 204; 404                                                |
 *
 * POST /recovery-codes is not among the original contracts: the issue asks for regenerating the codes, and it
 * needs the password for the same reason DELETE /totp does (a stolen session must not mint a
 * second factor). Ended sessions answer a 401 whose code says why (common/session-end.ts).
 */

const closed = { additionalProperties: false } as const

/** PATCH /me: one's own name, corrected (the rules of registration, common/name-rules.ts). */
export const MyAccountChangeBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 4 }) },
  closed,
)
export type MyAccountChangeBody = Static<typeof MyAccountChangeBodySchema>

const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' })

export const SessionItemSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    current: Type.Boolean({ description: 'the session this request came with' }),
    createdAt: DateTime,
    lastSeenAt: DateTime,
    expiresAt: Type.String({
      format: 'date-time',
      description: 'the earlier of its absolute end (SESSION_TTL) and its idle end',
    }),
    ip: Type.Union([Type.String(), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()], {
      description: 'the browser in short, readable form, e.g. "Chrome no Linux"',
    }),
  },
  closed,
)
export type SessionItem = Static<typeof SessionItemSchema>

/** GET /sessions: open sessions, this one first, then the most recently seen. */
export const SessionListSchema = Type.Object({ sessions: Type.Array(SessionItemSchema) }, closed)
export type SessionList = Static<typeof SessionListSchema>

export const SessionIdParamsSchema = Type.Object(
  { id: Type.String({ format: 'uuid', maxLength: 36 }) },
  closed,
)
export type SessionIdParams = Static<typeof SessionIdParamsSchema>

/**
 * GET /session: this session's limits, for the "Sua sessão vai expirar" warning. Any
 * authenticated call slides the idle end (written at most once a minute, so `idleExpiresAt`
 * may be up to a minute earlier than the last call plus the timeout); POST /session/renew
 * slides it at once.
 */
export const CurrentSessionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    expiresAt: Type.String({ format: 'date-time', description: 'the absolute end' }),
    idleExpiresAt: Type.String({ format: 'date-time', description: 'the end if nothing is done' }),
    idleTimeoutSeconds: Type.Integer({ minimum: 1 }),
  },
  closed,
)
export type CurrentSession = Static<typeof CurrentSessionSchema>

/** GET /mfa: which second factors the account has. */
export const MfaStatusSchema = Type.Object(
  {
    totp: Type.Boolean({ description: 'an authenticator app is confirmed' }),
    recoveryCodesLeft: Type.Integer({ minimum: 0 }),
    passkeys: Type.Integer({ minimum: 0 }),
  },
  closed,
)
export type MfaStatus = Static<typeof MfaStatusSchema>

/** POST /totp: a new secret, not active until confirmed; shown only by this answer. */
export const TotpSetupSchema = Type.Object(
  {
    secret: Type.String({ description: 'base32, for typing into the app' }),
    otpauthUrl: Type.String({ description: 'otpauth://totp/… for the QR code' }),
  },
  closed,
)
export type TotpSetup = Static<typeof TotpSetupSchema>

export const TotpConfirmBodySchema = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 16 }) },
  closed,
)
export type TotpConfirmBody = Static<typeof TotpConfirmBodySchema>

/** 10 single-use codes, shown once (stored hashed). */
export const RecoveryCodesSchema = Type.Object(
  { recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10 }) },
  closed,
)
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>

/** DELETE /totp and POST /recovery-codes: the current password (a wrong one counts as a failure). */
export const PasswordBodySchema = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 1024 }) },
  closed,
)
export type PasswordBody = Static<typeof PasswordBodySchema>

const PasskeyNameField = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 4 })

export const PasskeySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    createdAt: DateTime,
    lastUsedAt: Type.Union([DateTime, Type.Null()]),
  },
  closed,
)
export type Passkey = Static<typeof PasskeySchema>

export const PasskeyListSchema = Type.Object({ passkeys: Type.Array(PasskeySchema) }, closed)
export type PasskeyList = Static<typeof PasskeyListSchema>

/** POST /passkeys/options answers these (WebAuthn creation options). */
export const PasskeyCreationOptionsSchema = CreationOptionsSchema

/** POST /passkeys: startRegistration's result and a name the person chose ("Notebook"). */
export const PasskeyAddBodySchema = Type.Object(
  { response: RegistrationCredentialSchema, name: PasskeyNameField },
  closed,
)
export type PasskeyAddBody = Static<typeof PasskeyAddBodySchema>

/** PATCH /passkeys/:id: a new name. */
export const PasskeyRenameBodySchema = Type.Object({ name: PasskeyNameField }, closed)
export type PasskeyRenameBody = Static<typeof PasskeyRenameBodySchema>

export const PasskeyAnswerSchema = Type.Object({ passkey: PasskeySchema }, closed)
export type PasskeyAnswer = Static<typeof PasskeyAnswerSchema>

export const PasskeyIdParamsSchema = SessionIdParamsSchema
