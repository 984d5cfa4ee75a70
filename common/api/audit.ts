import { Type, type Static } from 'typebox'

/**
 * The audit log (docs/architecture.md, "Fixed contracts": GET /api/audit and /api/audit.csv): what happened, who did
 * it, to whom, from where. Admins only.
 */

const closed = { additionalProperties: false } as const

/** Every kind of event the log records; the client names each one in pt-BR. */
export const AUDIT_TYPES = [
  'sign_in',
  'sign_in_failed',
  'locked',
  'unlocked',
  'signed_out',
  'session_ended',
  'password_changed',
  'reset_requested',
  'password_reset',
  'registered',
  'approved',
  'refused',
  'disabled',
  'reenabled',
  'role_changed',
  'invited',
  'mfa_enabled',
  'mfa_disabled',
  'passkey_added',
  'passkey_removed',
  'recovery_code_used',
  'recovery_codes_regenerated',
  'passkey_renamed',
  'invitation_resent',
  'name_changed',
  'provider_linked',
  'provider_unlinked',
  'provider_link_invited',
  'team_changed',
  'role_created',
  'role_updated',
  'role_deleted',
  'team_created',
  'team_updated',
  'team_deletion_started',
  'team_deleted',
  'notice_sent',
  'notices_changed',
  'email_change_requested',
  'email_changed',
  'email_change_cancelled',
  'data_exported',
  'deletion_requested',
  'deletion_refused',
  'anonymised',
  'provisioned',
  'deprovisioned',
  'scim_token_created',
  'scim_token_revoked',
] as const
export type AuditType = (typeof AUDIT_TYPES)[number]

export const AuditTypeSchema = Type.Enum([...AUDIT_TYPES])

/** Someone named in an event, as they were when it happened (the account may be gone since). */
export const AuditPartySchema = Type.Object(
  { id: Type.String(), name: Type.String(), email: Type.String() },
  closed,
)
export type AuditParty = Static<typeof AuditPartySchema>

/** What the event adds; never a password, token or secret. */
export const AuditDetailsSchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
)
export type AuditDetails = Static<typeof AuditDetailsSchema>

export const AuditEventSchema = Type.Object(
  {
    id: Type.String(),
    at: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
    type: AuditTypeSchema,
    actor: Type.Union([AuditPartySchema, Type.Null()], { description: 'who did it' }),
    account: Type.Union([AuditPartySchema, Type.Null()], { description: 'whose account' }),
    ip: Type.Union([Type.String(), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()], {
      description: 'the User-Agent as the browser sent it (cut at 300 characters)',
    }),
    browser: Type.Union([Type.String(), Type.Null()], {
      description: 'that User-Agent in a few words a person recognises ("Safari no iPhone")',
    }),
    details: AuditDetailsSchema,
  },
  closed,
)
export type AuditEvent = Static<typeof AuditEventSchema>

const Uuid = Type.String({ format: 'uuid', maxLength: 36 })

/** The filters of both the list and the CSV; `before` is the `next` of the previous page. */
export const AuditQuerySchema = Type.Object(
  {
    type: Type.Optional(AuditTypeSchema),
    account: Type.Optional(Uuid),
    actor: Type.Optional(Uuid),
    from: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
    to: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
    before: Type.Optional(
      Type.String({ maxLength: 80, pattern: '^[0-9TZ:.-]+~[0-9a-fA-F-]{36}$' }),
    ),
  },
  closed,
)
export type AuditQuery = Static<typeof AuditQuerySchema>

/** The CSV's filters, and the zone its times are written in (the viewer's, so the file and the screen agree). */
export const AuditCsvQuerySchema = Type.Object(
  {
    ...AuditQuerySchema.properties,
    tz: Type.Optional(
      Type.String({
        maxLength: 64,
        pattern: '^[A-Za-z0-9_+/-]+$',
        description:
          'IANA time zone of the times written, e.g. America/Sao_Paulo; UTC when absent. Each time carries its offset (2026-11-25 14:03 -03:00).',
        examples: ['America/Sao_Paulo'],
      }),
    ),
  },
  closed,
)
export type AuditCsvQuery = Static<typeof AuditCsvQuerySchema>

export const AuditPageSchema = Type.Object(
  {
    events: Type.Array(AuditEventSchema),
    next: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as `before` for the older events; null on the last page',
    }),
  },
  closed,
)
export type AuditPage = Static<typeof AuditPageSchema>
