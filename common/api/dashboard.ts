import { Type, type Static } from 'typebox'
import { AuditEventSchema } from './audit'

/** The dashboard's figures (docs/architecture.md, "Fixed contracts": GET /api/dashboard; /api/dashboard/me for all). */

const closed = { additionalProperties: false } as const

export const SignInDaySchema = Type.Object(
  {
    day: Type.String({ format: 'date', description: 'UTC day, YYYY-MM-DD' }),
    succeeded: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
  },
  closed,
)
export type SignInDay = Static<typeof SignInDaySchema>

export const PendingItemSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  closed,
)

/** An admin's view: accounts, what waits for them, sign-ins over 14 days, recent events. */
export const DashboardSchema = Type.Object(
  {
    accounts: Type.Object(
      {
        active: Type.Integer({ minimum: 0 }),
        invited: Type.Integer({ minimum: 0, description: 'invited, no password set yet' }),
        pending: Type.Integer({ minimum: 0 }),
        disabled: Type.Integer({ minimum: 0 }),
      },
      closed,
    ),
    pending: Type.Array(PendingItemSchema, { description: 'the oldest five waiting' }),
    signIns: Type.Array(SignInDaySchema, { description: '14 days, oldest first, today last' }),
    recent: Type.Array(AuditEventSchema, { description: 'the newest ten events' }),
    lastSignInAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  closed,
)
export type Dashboard = Static<typeof DashboardSchema>

const BrowserField = Type.Union([Type.String(), Type.Null()], {
  description: 'the browser in short, readable form, e.g. "Chrome no Linux"',
})

/** One sign-in of one's own: when, from where, with which browser. */
export const MySignInSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    ip: Type.Union([Type.String(), Type.Null()]),
    userAgent: BrowserField,
  },
  closed,
)
export type MySignIn = Static<typeof MySignInSchema>

/**
 * Everyone's own part of Início, in one answer: the sign-in before this session and the failed
 * attempts since, the last sign-ins, the open sessions, and the second factors.
 */
export const MyActivitySchema = Type.Object(
  {
    lastSignIn: Type.Union([MySignInSchema, Type.Null()]),
    failedSince: Type.Integer({ minimum: 0, description: 'failed sign-ins since that one' }),
    passwordSignIn: Type.Boolean({
      description:
        'the person signs in with a password of their own (else at a sign-in provider): what Início advises depends on it',
    }),
    mfa: Type.Boolean({ description: 'whether the account has a second factor' }),
    signIns: Type.Array(MySignInSchema, {
      maxItems: 5,
      description: 'the last five sign-ins, newest first (this session included)',
    }),
    openSessions: Type.Integer({
      minimum: 1,
      description: 'the sessions of the account that still work, this one included',
    }),
    secondFactors: Type.Object(
      {
        totp: Type.Boolean({ description: 'an authenticator app is confirmed' }),
        passkeys: Type.Integer({ minimum: 0 }),
        recoveryCodesLeft: Type.Integer({
          minimum: 0,
          description: 'unused recovery codes (0 without an authenticator app)',
        }),
      },
      closed,
    ),
  },
  closed,
)
export type MyActivity = Static<typeof MyActivitySchema>
