import type { ColumnType, Generated, Selectable } from 'kysely'
import type { AccountStatus, Role } from '../../common/account-rules'
import type { Permission, RoleScope } from '../../common/permissions'

/** The tables, as Kysely sees them. The SQL that creates them is in migrations.ts. */

export type { AccountStatus, Role }

type CreatedAt = ColumnType<Date, Date | undefined, never>

export interface AccountsTable {
  id: string
  name: string
  /**
   * nameSortKey(name) (common/name-order.ts), written with the name (db/name-columns.ts):
   * the staff list orders by it, byte by byte on both engines. Required on insert so the compiler
   * finds every place that writes a name.
   */
  name_sort_key: string
  /** Trimmed and lower-cased; unique. */
  email: string
  /** `scrypt$N$r$p$salt$key`: see accounts/passwords.ts. */
  password_hash: string
  role: Role
  status: AccountStatus
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | undefined, Date>
  /**
   * Set while the account is an invitation not yet taken up: the person has no password of their
   * own (the API shows such an active account as `invited`). When the newest invitation link
   * stops working; cleared when a password is first set.
   */
  invitation_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /**
   * The person's role (db/role-columns.ts writes it with `role`, kept in step: admin for
   * Administrador, staff for any other). Required on insert so the compiler finds every place
   * that makes an account; every row has one (the 0700 migration).
   */
  role_id: string
  /** Their team, or none; a deleted team leaves its people with none. */
  team_id: ColumnType<string | null, string | null | undefined, string | null>
  /** Mail the owner when a browser new to the account signs in (security-notices/). */
  notice_new_browser: ColumnType<boolean, boolean | undefined, boolean>
  /**
   * The newest `sign_in` event's time, written with the event (audit-log/record-audit.ts), so
   * Equipe shows and sorts by it without reading the log (db/list-migrations.ts).
   */
  last_sign_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /**
   * Has a second factor (a confirmed authenticator app or a passkey): kept by triggers on
   * totp_factors and passkeys (db/list-migrations.ts), never written by the code.
   */
  mfa: ColumnType<boolean, never, never>
  /**
   * When the lock on the account's password ends (sign_in_limits' `account:` row, its
   * blocked_until), or null: kept by triggers (db/list-migrations.ts), never written by the code.
   * Equipe's "locked" filter reads the locked accounts from it in its order; whether a lock is in
   * force is still sign_in_limits' to say (isLockedSql).
   */
  locked_until: ColumnType<Date | null, never, never>
  /** The directory's id of the person (SCIM externalId: db/provisioning-migrations.ts). */
  scim_external_id: ColumnType<string | null, string | null | undefined, string | null>
  /** The directory created the account: only then may SCIM change its e-mail. */
  scim_provisioned: ColumnType<boolean, boolean | undefined, boolean>
  /** The directory deleted the person: disabled, and gone from SCIM. */
  scim_removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

/**
 * How many accounts there are of each team, role, status as Equipe shows it and second factor
 * or none, kept by
 * triggers on `accounts` (db/list-migrations.ts, 0203): Equipe's total and Início's figures.
 */
export interface AccountTalliesTable {
  /** The team's id, or '' for no team. */
  team_key: string
  role_id: string
  status: string
  mfa: boolean
  count: ColumnType<number, number, number>
}

/**
 * One row that every change an admin makes to an account locks first, so that such changes are
 * made one after another (accounts/account-administration.ts, lockAdminChanges).
 */
export interface AccountChangeLockTable {
  id: number
}

/**
 * A SCIM Group's meta.version: a random stamp made anew, by triggers, whenever what the Group
 * shows changes (db/provisioning-migrations.ts, 4603; features/provisioning/scim-groups.ts).
 */
export interface GroupVersionsTable {
  team_id: string
  version: string
}

/**
 * Sign-ins per UTC day (YYYY-MM-DD) and the team the person was in then ('' for none), written
 * with each sign-in event (audit-log/record-audit.ts): Início's chart.
 */
export interface SignInDaysTable {
  day: string
  team_key: string
  succeeded: number
  failed: number
}

/** A role: a set of permissions with a scope (roles/role-store.ts). */
export interface RolesTable {
  id: string
  name: string
  /** db/name-key.ts: names are unique case-insensitively. */
  name_key: string
  description: string
  scope: RoleScope
  /** Administrador and Equipe: read-only, never deleted. */
  built_in: ColumnType<boolean, boolean | undefined, boolean>
  created_at: CreatedAt
}

/** A permission a role holds (none for Administrador: it holds the whole catalogue). */
export interface RolePermissionsTable {
  role_id: string
  permission: Permission
}

export interface TeamsTable {
  id: string
  name: string
  name_key: string
  description: string
  /** Published: a registration may choose it. */
  open: ColumnType<boolean, boolean | undefined, boolean>
  created_at: CreatedAt
  /** The directory's id of the group (SCIM externalId). */
  scim_external_id: ColumnType<string | null, string | null | undefined, string | null>
  /** The last change SCIM made or saw (null: never changed since issue 46's migration). */
  updated_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

/** A provisioning token (SCIM): its SHA-256 only, never the token. */
export interface ScimTokensTable {
  id: string
  name: string
  token_hash: string
  created_at: Date
  last_used_at: Date | null
  /** Who made it (null once that account is gone), and their name then. */
  created_by: string | null
  created_by_name: string
}

export interface SessionsTable {
  /** SHA-256 of the token: the token itself is only ever with the client. */
  token_hash: string
  account_id: string
  created_at: CreatedAt
  /** The absolute end (SESSION_TTL). */
  expires_at: Date
  /** Shown to the owner and used to end it; every session has one (the 0200 migration). */
  id: string
  /** Slid by use, at most once a minute: the idle timeout counts from here. */
  last_seen_at: Date
  ip: string | null
  /** A short, readable form of the User-Agent ("Chrome no Linux"). */
  browser: string | null
  /** Set when the session was ended by someone, with why (a code of common/session-end.ts). */
  ended_at: Date | null
  end_reason: string | null
  /**
   * Opened after a multi-factor sign-in at a provider trusted for it (AUTH_<NAME>_TRUST_MFA):
   * MFA_REQUIRED is satisfied for this session only.
   */
  provider_mfa: ColumnType<boolean, boolean | undefined, boolean>
}

/** An authenticator app's secret; active once `confirmed_at` is set. */
export interface TotpFactorsTable {
  account_id: string
  /** base32; never leaves the server after the setup answer. */
  secret: string
  created_at: Date
  confirmed_at: Date | null
  /** The time step of the last accepted code (no replay). */
  last_step: ColumnType<number | null, number | null, number | null>
}

/** Single-use codes for a lost phone, stored as SHA-256 (each has 80 random bits). */
export interface RecoveryCodesTable {
  code_hash: string
  account_id: string
  created_at: Date
  used_at: Date | null
}

/** Between a right password and a second factor: 5 minutes, 5 codes. */
export interface MfaChallengesTable {
  token_hash: string
  account_id: string
  expires_at: Date
  tries: number
  used_at: Date | null
}

export interface PasskeysTable {
  id: string
  account_id: string
  /** base64url, as the browser sends it. */
  credential_id: string
  /** The COSE public key, base64url. */
  public_key: string
  /** bigint: PostgreSQL hands it back as text. */
  counter: ColumnType<number | string, number, number>
  /** JSON array of transports ("internal", "usb", …). */
  transports: string
  name: string
  created_at: Date
  last_used_at: Date | null
}

/** A challenge a passkey is to sign: single use, a few minutes (accounts/passkey-challenges.ts). */
export interface WebauthnChallengesTable {
  /** base64url, as it comes back in the browser's clientDataJSON. */
  challenge: string
  purpose: 'register' | 'sign_in'
  /** Whose passkey: set for adding one and for a second factor; null for a sign-in by passkey alone. */
  account_id: string | null
  /** Adding a passkey: the session (its id) that asked for the options. */
  session_id: string | null
  /** A passkey as second factor: the SHA-256 of the login's challenge token. */
  mfa_challenge_hash: string | null
  expires_at: Date
}

export interface PasswordResetsTable {
  token_hash: string
  account_id: string
  created_at: CreatedAt
  expires_at: Date
  used_at: Date | null
}

/** Failed sign-ins (and mails sent) per account or address, in a fixed window. */
export interface AuthThrottleTable {
  key: string
  count: number
  window_started_at: Date
}

/** Failed sign-ins per key, with the time the key may try again: accounts/sign-in-limits.ts. */
export interface SignInLimitsTable {
  key: string
  /** The e-mail the key belongs to (null for an address's own key), for lifting locks. */
  account: string | null
  count: number
  window_ends_at: Date
  blocked_until: Date
}

/** A browser that signed in to the account before: accounts/trusted-devices.ts. */
export interface TrustedDevicesTable {
  token_hash: string
  account_id: string
  expires_at: Date
}

/** One line of the audit log. */
export interface AuditEventsTable {
  id: string
  at: Date
  type: string
  actor_id: string | null
  actor_name: string | null
  actor_email: string | null
  account_id: string | null
  account_name: string | null
  account_email: string | null
  ip: string | null
  user_agent: string | null
  /** JSON object as text. */
  details: string
}

/**
 * An e-mail address an event's details quote (quoted-emails.ts), lower-cased: what an
 * anonymisation looks the person's addresses up in. Goes with its event (a foreign key that
 * cascades, on both engines).
 */
export interface AuditEventEmailsTable {
  email: string
  event_id: string
}

/** Per admin: when the last "new registrations" mail went, and the newest registration it covered. */
export interface RegistrationNoticesTable {
  admin_id: string
  last_sent_at: Date
  covered_until: Date
}

/** Where a mail's row is: waiting (to be sent or retried), or finished one way or the other. */
export type MailState = 'waiting' | 'sent' | 'failed'

/** One mail of the outbox: mail/outbox.ts. */
export interface MailOutboxTable {
  id: string
  /** What the mail is about ('invitation', 'password_reset', …): the logs and metrics say it. */
  kind: string
  recipient: string
  /** Null until composed (a recovery request is composed by the sender). */
  subject: string | null
  /** Emptied (null) once the row is finished: the body holds live links. */
  text: string | null
  html: string | null
  /** JSON: what the sender needs to compose the mail (the request's origin). */
  request: string | null
  state: MailState
  /** Delivery attempts made so far. */
  attempts: number
  created_at: Date
  /** When a waiting row is next due. */
  next_attempt_at: Date
  /** The sender that holds the row, and until when (a crashed sender's claim runs out). */
  claimed_by: string | null
  claimed_until: Date | null
  last_attempt_at: Date | null
  last_error: string | null
  /** When it was sent, or given up on (failed). */
  finished_at: Date | null
}

/** Who a person is at a sign-in provider (features/sign-in-with-provider/provider-links.ts). */
export interface ProviderLinksTable {
  id: string
  /** AUTH_PROVIDERS' name. */
  provider: string
  /** The issuer that vouched for the subject. */
  issuer: string
  /** The ID token's `sub`; for gov.br a CPF, masked wherever it is shown (cpf-mask.ts). */
  subject: string
  account_id: string
  linked_at: CreatedAt
  last_used_at: Date | null
}

/** Between a provider's callback and the session: features/sign-in-with-provider/hand-off-codes.ts. */
export interface SignInHandOffsTable {
  /** SHA-256 of the code: the code itself only travels to the browser. */
  code_hash: string
  account_id: string
  provider: string
  redirect_target: string | null
  provider_multi_factor: boolean
  expires_at: Date
}

export interface PendingProviderLinksTable {
  /** SHA-256 of the token in the browser's cookie. */
  token_hash: string
  /** The account whose e-mail the provider claimed: the only one the link may be made to. */
  account_id: string
  provider: string
  issuer: string
  /** The provider's `sub` (gov.br's is a CPF: never logged, never shown unmasked). */
  subject: string
  /** SHA-256 of the second-factor challenge the right password opened, if the account has one. */
  challenge_hash: string | null
  expires_at: Date
}

/** A change of e-mail waiting for the new address (features/email-change/). */
export interface EmailChangesTable {
  id: string
  account_id: string
  /** Normalised (trimmed, lower-cased) like accounts.email. */
  new_email: string
  /** SHA-256 of the confirmation link's token (mailed to the new address). */
  confirm_token_hash: string
  /** SHA-256 of the cancel link's token (mailed to the old address). */
  cancel_token_hash: string
  created_at: Date
  /** 24 hours after it was asked for. */
  expires_at: Date
  ended_at: Date | null
  outcome: 'confirmed' | 'cancelled' | 'replaced' | null
}

/**
 * An admin's mailed link for a person to connect a sign-in provider
 * (features/sign-in-with-provider/link-invitations.ts): one per person and provider, a newer one
 * in place of the older; taken (deleted) in the transaction that makes the link.
 */
export interface ProviderLinkInvitationsTable {
  id: string
  account_id: string
  /** AUTH_PROVIDERS' name. */
  provider: string
  /** SHA-256 of the mailed link's token (a new one at each delivery: mail/outbox.ts). */
  token_hash: string
  /** The admin who sent it (no foreign key: the audit log names them whatever happens later). */
  invited_by: string
  created_at: Date
  /** 24 hours after it was sent. */
  expires_at: Date
}

/** A person's request to be deleted, and what an admin decided (features/account-deletion/). */
export interface DeletionRequestsTable {
  id: string
  account_id: string
  requested_at: Date
  decided_at: Date | null
  decided_by: string | null
  outcome: 'anonymised' | 'refused' | null
  /** An admin's reason for a refusal, told to the person. */
  reason: string | null
  /** When those who may decide it were reminded of its deadline; null until then. */
  reminded_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

export interface Schema {
  accounts: AccountsTable
  sessions: SessionsTable
  totp_factors: TotpFactorsTable
  recovery_codes: RecoveryCodesTable
  mfa_challenges: MfaChallengesTable
  passkeys: PasskeysTable
  webauthn_challenges: WebauthnChallengesTable
  password_resets: PasswordResetsTable
  auth_throttle: AuthThrottleTable
  sign_in_limits: SignInLimitsTable
  trusted_devices: TrustedDevicesTable
  audit_events: AuditEventsTable
  audit_event_emails: AuditEventEmailsTable
  registration_notices: RegistrationNoticesTable
  mail_outbox: MailOutboxTable
  provider_links: ProviderLinksTable
  sign_in_hand_offs: SignInHandOffsTable
  pending_provider_links: PendingProviderLinksTable
  roles: RolesTable
  role_permissions: RolePermissionsTable
  teams: TeamsTable
  email_changes: EmailChangesTable
  deletion_requests: DeletionRequestsTable
  provider_link_invitations: ProviderLinkInvitationsTable
  account_tallies: AccountTalliesTable
  account_change_lock: AccountChangeLockTable
  group_versions: GroupVersionsTable
  sign_in_days: SignInDaysTable
  scim_tokens: ScimTokensTable
  /** Kysely's own bookkeeping of applied migrations. */
  kysely_migration: { name: string; timestamp: Generated<string> }
}

export type Account = Selectable<AccountsTable>
export type Session = Selectable<SessionsTable>
