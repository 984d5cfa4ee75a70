import type { ColumnType, Generated, Selectable } from 'kysely'
import type { AccountStatus, Role } from '../../common/account-rules'

/** The tables, as Kysely sees them. The SQL that creates them is in migrations.ts. */

export type { AccountStatus, Role }

type CreatedAt = ColumnType<Date, Date | undefined, never>

export interface AccountsTable {
  id: string
  name: string
  /** Trimmed and lower-cased; unique. */
  email: string
  /** `scrypt$N$r$p$salt$key`: see auth/passwords.ts. */
  password_hash: string
  role: Role
  status: AccountStatus
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | undefined, Date>
}

export interface SessionsTable {
  /** SHA-256 of the token: the token itself is only ever with the client. */
  token_hash: string
  account_id: string
  created_at: CreatedAt
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

/** Failed sign-ins per key, with the time the key may try again: auth/sign-in-limits.ts. */
export interface SignInLimitsTable {
  key: string
  /** The e-mail the key belongs to (null for an address's own key), for lifting locks. */
  account: string | null
  count: number
  window_ends_at: Date
  blocked_until: Date
}

/** A browser that signed in to the account before: auth/trusted-devices.ts. */
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

/** Per admin: when the last "new registrations" mail went, and the newest registration it covered. */
export interface RegistrationNoticesTable {
  admin_id: string
  last_sent_at: Date
  covered_until: Date
}

export interface Schema {
  accounts: AccountsTable
  sessions: SessionsTable
  password_resets: PasswordResetsTable
  auth_throttle: AuthThrottleTable
  sign_in_limits: SignInLimitsTable
  trusted_devices: TrustedDevicesTable
  audit_events: AuditEventsTable
  registration_notices: RegistrationNoticesTable
  /** Kysely's own bookkeeping of applied migrations. */
  kysely_migration: { name: string; timestamp: Generated<string> }
}

export type Account = Selectable<AccountsTable>
