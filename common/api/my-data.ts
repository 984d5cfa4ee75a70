import { Type, type Static } from 'typebox'
import { AuditEventSchema } from './audit'

/**
 * GET /api/me/export (Bearer): everything the panel holds about the signed-in person (LGPD art.
 * 18, II and V; docs/personal-data.md lists each field and how long it is kept), as a JSON
 * attachment. No secret is in it: no password hash, TOTP secret, recovery code, passkey key,
 * session or link token (only that they exist, and their dates). Rate-limited per person, and
 * audited (`data_exported`).
 */

const closed = { additionalProperties: false } as const
const DateTime = Type.String({ format: 'date-time' })
const OptionalDate = Type.Union([DateTime, Type.Null()])
const Text = Type.Union([Type.String(), Type.Null()])

export const MyDataSchema = Type.Object(
  {
    generatedAt: DateTime,
    account: Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        email: Type.String(),
        role: Type.String({ description: '`admin` or `staff`, as the API had it before roles' }),
        roleName: Type.Union([Type.String(), Type.Null()], {
          description: 'the role by name (Administrador, Equipe, or one the admins made)',
        }),
        teamName: Type.Union([Type.String(), Type.Null()], {
          description: 'the team by name; null without one',
        }),
        status: Type.String(),
        createdAt: DateTime,
        updatedAt: DateTime,
        invitationExpiresAt: OptionalDate,
        newBrowserNotice: Type.Boolean(),
      },
      closed,
    ),
    sessions: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          createdAt: DateTime,
          lastSeenAt: DateTime,
          expiresAt: DateTime,
          endedAt: OptionalDate,
          endReason: Text,
          ip: Text,
          browser: Text,
        },
        closed,
      ),
    ),
    browsers: Type.Array(Type.Object({ trustedUntil: DateTime }, closed), {
      description: 'browsers that signed in before (their device cookie), without the cookie',
    }),
    passkeys: Type.Array(
      Type.Object(
        { id: Type.String(), name: Type.String(), createdAt: DateTime, lastUsedAt: OptionalDate },
        closed,
      ),
    ),
    secondFactor: Type.Object(
      {
        totp: Type.Boolean(),
        totpSince: OptionalDate,
        recoveryCodesLeft: Type.Integer(),
      },
      closed,
    ),
    providers: Type.Array(
      Type.Object(
        {
          provider: Type.String(),
          subject: Type.String({ description: 'who you are at the provider (a CPF for gov.br)' }),
          linkedAt: DateTime,
          lastUsedAt: OptionalDate,
        },
        closed,
      ),
    ),
    providerLinkInvitations: Type.Array(
      Type.Object(
        { provider: Type.String(), sentAt: DateTime, expiresAt: DateTime },
        {
          ...closed,
          description:
            "an admin's mailed link to connect a provider to this account, while it is open (the admin is named in the audit events)",
        },
      ),
    ),
    emailChanges: Type.Array(
      Type.Object(
        {
          newEmail: Type.String(),
          createdAt: DateTime,
          expiresAt: DateTime,
          endedAt: OptionalDate,
          outcome: Text,
        },
        closed,
      ),
    ),
    signInLimits: Type.Array(
      Type.Object(
        { failures: Type.Integer(), windowEndsAt: DateTime, blockedUntil: DateTime },
        closed,
      ),
    ),
    mails: Type.Array(
      Type.Object(
        {
          kind: Type.String(),
          to: Type.String(),
          subject: Text,
          state: Type.String(),
          createdAt: DateTime,
          finishedAt: OptionalDate,
        },
        closed,
      ),
      { description: 'mails the panel sent or is sending to you (their bodies are not kept)' },
    ),
    auditEvents: Type.Array(AuditEventSchema, {
      description:
        'what you did, what was done to your account, and the events of no account that quote your address (a sign-in tried with it; without the IP address and browser of whoever tried), newest first',
    }),
  },
  closed,
)
export type MyData = Static<typeof MyDataSchema>
