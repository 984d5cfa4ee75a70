import { Type, type Static } from 'typebox'
import { EMAIL_MAX_LENGTH } from '../account-rules'
import { NAME_MAX_LENGTH } from '../name-rules'
import { RoleSchema } from './account'

/** Staff administration (docs/architecture.md, "Fixed contracts", under /api/staff): admins only. */

const closed = { additionalProperties: false } as const

export const STAFF_PAGE_SIZE = 20
export const STAFF_SORTS = [
  'name',
  '-name',
  'createdAt',
  '-createdAt',
  'lastSignInAt',
  '-lastSignInAt',
] as const
export type StaffSort = (typeof STAFF_SORTS)[number]

/**
 * An account's status as Equipe sees it: an account's stored status, except that an active
 * account whose person was invited and has not set a password yet is `invited`.
 */
export const StaffStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('invited'),
  Type.Literal('active'),
  Type.Literal('disabled'),
])
export type StaffStatus = Static<typeof StaffStatusSchema>

const Flag = Type.Union([Type.Literal('true'), Type.Literal('false')])

/**
 * Without `sort`: pending first (they wait for someone), then by name. One of `page`, `after`
 * and `before` at most (400 otherwise).
 */
export const StaffQuerySchema = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 100 })),
    status: Type.Optional(StaffStatusSchema),
    role: Type.Optional(RoleSchema),
    roleId: Type.Optional(Type.String({ format: 'uuid', maxLength: 36 })),
    teamId: Type.Optional(
      Type.String({
        // A plain UUID (common/account-id.ts), not any 36 hex digits and dashes: PostgreSQL's
        // uuid column would refuse that with an error, not an empty list.
        pattern:
          '^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|none)$',
        description: 'a team id, or `none` for the people of no team',
      }),
    ),
    locked: Type.Optional(Flag),
    mfa: Type.Optional(Flag),
    sort: Type.Optional(Type.Enum([...STAFF_SORTS])),
    // Query strings are text (the server does not coerce types): whole numbers as digits.
    page: Type.Optional(
      Type.String({
        pattern: '^([1-9][0-9]{0,5}|last)$',
        description:
          'a page by its number, read from the start of the list (its cost grows with the number: the screen pages with `after` and `before`), or `last` (400 with a search or the locked filter that keeps more than 5,000: its number would need them all counted; the reverse sort gives the same people first)',
      }),
    ),
    after: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]+$',
        maxLength: 2000,
        description: 'the page after this one: the `next` of an answer (for the same sort)',
      }),
    ),
    before: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]+$',
        maxLength: 2000,
        description: 'the page before this one: the `previous` of an answer (for the same sort)',
      }),
    ),
    pageSize: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|100)$' })),
  },
  closed,
)
export type StaffQuery = Static<typeof StaffQuerySchema>

export const StaffItemSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    roleId: Type.String({ format: 'uuid' }),
    roleName: Type.String(),
    teamId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    teamName: Type.Union([Type.String(), Type.Null()]),
    status: StaffStatusSchema,
    invitationExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'while the person has not set a password since being invited (also when disabled): when the newest invitation link stops working',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastSignInAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    locked: Type.Boolean({ description: 'too many failed sign-ins: refused until unlocked' }),
    mfa: Type.Boolean({ description: 'has a second factor' }),
    outranksYou: Type.Boolean({
      description:
        "this person's role holds a permission the caller's lacks: every action on them is refused (403 outranked), so none is offered. Never for an Administrador caller, nor on the caller's own account (own_account refuses those)",
    }),
  },
  closed,
)
export type StaffItem = Static<typeof StaffItemSchema>

export const StaffListSchema = Type.Object(
  {
    items: Type.Array(StaffItemSchema),
    total: Type.Integer({
      minimum: 0,
      description:
        'how many accounts the list holds; with a search or the locked filter, counted up to 100 only (totalExact false: more than that; up to 5,000 for `page=last`)',
    }),
    totalExact: Type.Boolean({ description: 'false: the list holds more than `total`' }),
    page: Type.Integer({
      minimum: 1,
      description:
        "the page's number (read from a cursor: the number it had when the cursor was made)",
    }),
    pageSize: Type.Integer({ minimum: 1 }),
    next: Type.Union([Type.String(), Type.Null()], {
      description: 'the cursor of the next page (`after`), or null on the last',
    }),
    previous: Type.Union([Type.String(), Type.Null()], {
      description: 'the cursor of the previous page (`before`), or null on the first',
    }),
    openDeletionRequests: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'for a caller with staff.delete: how many requests for deletion of the people they reach wait for a decision (the sidebar shows it)',
      }),
    ),
  },
  closed,
)
export type StaffList = Static<typeof StaffListSchema>

export const AccountIdParamsSchema = Type.Object(
  { id: Type.String({ format: 'uuid', maxLength: 36 }) },
  closed,
)
export type AccountIdParams = Static<typeof AccountIdParamsSchema>

export const StaffSessionSchema = Type.Object(
  {
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  closed,
)

/** How a person signs in: a password of their own, passkeys, sign-in providers. */
export const SignInMethodsSchema = Type.Object(
  {
    password: Type.Boolean({ description: 'has a password of their own' }),
    passkeys: Type.Integer({ minimum: 0 }),
    providers: Type.Array(Type.String(), {
      description: 'the sign-in providers linked, as the login page names them',
    }),
    linkable: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: "AUTH_PROVIDERS' name" }),
          label: Type.String({ description: 'as the login page names it' }),
        },
        closed,
      ),
      {
        description:
          'the configured providers an active account is not linked to: an admin may mail a link for each (POST /staff/:id/provider-link-invitations)',
      },
    ),
  },
  closed,
)
export type SignInMethods = Static<typeof SignInMethodsSchema>

/** One account's page: the account and its open sessions (its history is GET /audit?account=). */
export const StaffAccountSchema = Type.Object(
  {
    user: StaffItemSchema,
    sessions: Type.Array(StaffSessionSchema),
    signIn: SignInMethodsSchema,
  },
  closed,
)
export type StaffAccount = Static<typeof StaffAccountSchema>

export const StaffChangeBodySchema = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
    role: Type.Optional(RoleSchema),
    roleId: Type.Optional(
      Type.String({ format: 'uuid', maxLength: 36, description: 'a role of GET /api/roles' }),
    ),
    teamId: Type.Optional(
      Type.Union([Type.String({ format: 'uuid', maxLength: 36 }), Type.Null()], {
        description: 'a team of GET /api/teams; null: no team',
      }),
    ),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: NAME_MAX_LENGTH * 4,
        description: 'a corrected name, by the rules of registration',
      }),
    ),
  },
  { ...closed, minProperties: 1 },
)
export type StaffChangeBody = Static<typeof StaffChangeBodySchema>

export const StaffItemAnswerSchema = Type.Object({ user: StaffItemSchema }, closed)
export type StaffItemAnswer = Static<typeof StaffItemAnswerSchema>

/** The longest reason for a refusal, quoted in the mail (one refusal or many at once). */
export const REFUSAL_REASON_MAX_LENGTH = 500

/** Refusing a registration: an optional reason, quoted in the mail to the person. */
export const RefuseBodySchema = Type.Union([
  Type.Object(
    { reason: Type.Optional(Type.String({ maxLength: REFUSAL_REASON_MAX_LENGTH })) },
    closed,
  ),
  Type.Null(),
])
export type RefuseBody = Static<typeof RefuseBodySchema>

export const InvitationBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 4 }),
    email: Type.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH }),
    role: Type.Optional(RoleSchema),
    roleId: Type.Optional(
      Type.String({
        format: 'uuid',
        maxLength: 36,
        description: 'a role of GET /api/roles (wins over role); neither: Equipe',
      }),
    ),
    teamId: Type.Optional(
      Type.Union([Type.String({ format: 'uuid', maxLength: 36 }), Type.Null()]),
    ),
  },
  closed,
)
export type InvitationBody = Static<typeof InvitationBodySchema>

/** The most people one bulk action takes: a whole page of the list at its largest size. */
export const STAFF_BULK_MAX = 100

export const STAFF_BULK_ACTIONS = ['approve', 'refuse', 'disable'] as const
export type StaffBulkAction = (typeof STAFF_BULK_ACTIONS)[number]

/**
 * One action for several people (Equipe's selection): what is safe in bulk. Each person's
 * change is its own transaction, under the same rules as the single-person calls.
 */
export const StaffBulkBodySchema = Type.Object(
  {
    action: Type.Enum([...STAFF_BULK_ACTIONS], {
      description:
        'approve: pending registrations become active; refuse: pending registrations are removed (the people are told by mail); disable: accounts are disabled and their sessions end',
    }),
    ids: Type.Array(Type.String({ format: 'uuid', maxLength: 36 }), {
      minItems: 1,
      maxItems: STAFF_BULK_MAX,
      description: 'the accounts, at most 100; an id given twice is acted on once',
    }),
    reason: Type.Optional(
      Type.String({
        maxLength: REFUSAL_REASON_MAX_LENGTH,
        description: 'refuse only: the one reason quoted in every refusal mail',
      }),
    ),
  },
  closed,
)
export type StaffBulkBody = Static<typeof StaffBulkBodySchema>

export const StaffBulkResultSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    outcome: Type.Union(
      [Type.Literal('done'), Type.Literal('already_done'), Type.Literal('failed')],
      {
        description:
          'done: changed now; already_done: it was so already (another admin did it meanwhile), nothing changed; failed: refused, for the reason in error',
      },
    ),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, closed)),
  },
  closed,
)
export type StaffBulkResult = Static<typeof StaffBulkResultSchema>

/** One result per distinct id, in the order the ids were first given. */
export const StaffBulkAnswerSchema = Type.Object(
  { results: Type.Array(StaffBulkResultSchema) },
  closed,
)
export type StaffBulkAnswer = Static<typeof StaffBulkAnswerSchema>
