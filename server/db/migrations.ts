import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { nameSortKey } from '../../common/name-order'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { nameKey } from './name-key'
import {
  laterListMigrations,
  listMigrations,
  listMigrationsAfterScimPages,
  listMigrationsAfterScimRemovals,
} from './list-migrations'
import {
  laterProvisioningMigrations,
  provisioningMigrations,
  provisioningMigrationsAfterAdminLock,
} from './provisioning-migrations'
import { engineOf, portableSql, type Engine, type PortableMigration } from './portable-sql'
import type { Schema } from './schema'

const migrations: Record<string, PortableMigration> = {
  // Shipped on PostgreSQL (and PGlite) under this name; on PostgreSQL it still makes exactly the
  // tables it made then (uuid, timestamptz, now()), so existing databases see nothing new.
  '2026-11-21-0001-accounts-and-sessions': {
    async up(db, t) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull().unique())
        .addColumn('password_hash', 'text', (column) => column.notNull())
        .addColumn('role', 'text', (column) =>
          column.notNull().check(sql`role in ('admin', 'staff')`),
        )
        .addColumn('status', 'text', (column) =>
          column.notNull().check(sql`status in ('pending', 'active', 'disabled')`),
        )
        .addColumn('created_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .addColumn('updated_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('created_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('sessions_account_id')
        .on('sessions')
        .column('account_id')
        .execute()
      await db.schema
        .createIndex('sessions_expires_at')
        .on('sessions')
        .column('expires_at')
        .execute()

      await db.schema
        .createTable('password_resets')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('created_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .addColumn('used_at', t.timestamp)
        .execute()
      await db.schema
        .createIndex('password_resets_account_id')
        .on('password_resets')
        .column('account_id')
        .execute()

      await db.schema
        .createTable('auth_throttle')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('count', 'integer', (column) => column.notNull())
        .addColumn('window_started_at', t.timestamp, (column) => column.notNull())
        .execute()
    },
  },

  '2026-11-22-0002-sign-in-limits-and-trusted-devices': {
    async up(db, t) {
      // Failed sign-ins per key (account, account and address, address, device): see
      // accounts/sign-in-limits.ts. `account` (the e-mail) lets an admin lift every lock of one
      // account.
      await db.schema
        .createTable('sign_in_limits')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('account', 'text')
        .addColumn('count', 'integer', (column) => column.notNull())
        .addColumn('window_ends_at', t.timestamp, (column) => column.notNull())
        .addColumn('blocked_until', t.timestamp, (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('sign_in_limits_account')
        .on('sign_in_limits')
        .column('account')
        .execute()

      // Browsers that signed in to an account before: see accounts/trusted-devices.ts.
      await db.schema
        .createTable('trusted_devices')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('trusted_devices_account_id')
        .on('trusted_devices')
        .column('account_id')
        .execute()
    },
  },

  /**
   * The audit log, and when each admin was last mailed about new registrations. Portable on
   * purpose (text and integer only, no database defaults): times are ISO 8601 UTC strings from
   * `Date.toISOString()`, which sort as text in the order of time; details are JSON as text. No
   * foreign keys: an event outlives the account it names (a refused registration is deleted).
   */
  // The audit log keeps who and whom by id and by name and e-mail as they were, with no foreign
  // key: an event outlives the account it names (a refused registration is removed).
  '2026-11-22-0100-audit-events': {
    async up(db, t) {
      await db.schema
        .createTable('audit_events')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('at', t.timestamp, (column) => column.notNull())
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('actor_id', t.uuid)
        .addColumn('actor_name', 'text')
        .addColumn('actor_email', 'text')
        .addColumn('account_id', t.uuid)
        .addColumn('account_name', 'text')
        .addColumn('account_email', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('details', 'text', (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('audit_events_at')
        .on('audit_events')
        .columns(['at', 'id'])
        .execute()
      await db.schema
        .createIndex('audit_events_account')
        .on('audit_events')
        .columns(['account_id', 'type', 'at'])
        .execute()
      await db.schema
        .createIndex('audit_events_actor')
        .on('audit_events')
        .columns(['actor_id', 'at'])
        .execute()
      await db.schema
        .createIndex('audit_events_type')
        .on('audit_events')
        .columns(['type', 'at'])
        .execute()

      await db.schema
        .createTable('registration_notices')
        .addColumn('admin_id', t.uuid, (column) =>
          column.primaryKey().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('last_sent_at', t.timestamp, (column) => column.notNull())
        .addColumn('covered_until', t.timestamp, (column) => column.notNull())
        .execute()
    },
  },

  /**
   * Issue 13: what a session shows its owner (an id to end it by, when it was last used, from
   * where and which browser) and why it ended (the 401 says so); second factors (TOTP, its
   * recovery codes, passkeys) and the short-lived challenges between a password and a second
   * factor, or before a passkey signs.
   */
  '2026-11-22-0200-sessions-and-second-factors': {
    async up(db, t) {
      // SQLite adds one column a statement.
      for (const [name, type] of [
        ['id', t.uuid],
        ['last_seen_at', t.timestamp],
        ['ip', 'text'],
        ['browser', 'text'],
        ['ended_at', t.timestamp],
        ['end_reason', 'text'],
      ] as const) {
        await db.schema.alterTable('sessions').addColumn(name, type).execute()
      }
      // Sessions open at the upgrade go on working: each gets an id, and its start as last use.
      const open = await sql<{
        token_hash: string
      }>`select token_hash from sessions`.execute(db)
      for (const { token_hash } of open.rows) {
        await sql`update sessions set id = ${crypto.randomUUID()}, last_seen_at = created_at where token_hash = ${token_hash}`.execute(
          db,
        )
      }
      await db.schema.createIndex('sessions_id').on('sessions').column('id').unique().execute()

      await db.schema
        .createTable('totp_factors')
        .addColumn('account_id', t.uuid, (column) =>
          column.primaryKey().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text', (column) => column.notNull())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('confirmed_at', t.timestamp)
        // The time step of the last code accepted: that code, and older ones, are refused.
        .addColumn('last_step', 'integer')
        .execute()

      await db.schema
        .createTable('recovery_codes')
        .addColumn('code_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('used_at', t.timestamp)
        .execute()
      await db.schema
        .createIndex('recovery_codes_account_id')
        .on('recovery_codes')
        .column('account_id')
        .execute()

      await db.schema
        .createTable('mfa_challenges')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .addColumn('tries', 'integer', (column) => column.notNull())
        .addColumn('used_at', t.timestamp)
        .execute()

      await db.schema
        .createTable('passkeys')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('credential_id', 'text', (column) => column.notNull().unique())
        .addColumn('public_key', 'text', (column) => column.notNull())
        .addColumn('counter', 'bigint', (column) => column.notNull())
        .addColumn('transports', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('last_used_at', t.timestamp)
        .execute()
      await db.schema
        .createIndex('passkeys_account_id')
        .on('passkeys')
        .column('account_id')
        .execute()

      // The challenges a passkey signs: single use, a few minutes. `account_id` for adding a
      // passkey (and for a second factor); null for a sign-in by passkey alone.
      await db.schema
        .createTable('webauthn_challenges')
        .addColumn('challenge', 'text', (column) => column.primaryKey())
        .addColumn('purpose', 'text', (column) =>
          column.notNull().check(sql`purpose in ('register', 'sign_in')`),
        )
        .addColumn('account_id', t.uuid, (column) =>
          column.references('accounts.id').onDelete('cascade'),
        )
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .execute()
    },
  },

  /**
   * A passkey challenge is bound to where it was asked for: adding a passkey, to the session that
   * asked (another session of the same person cannot finish it); a passkey as a login's second
   * factor, to that login's challenge (the hash of its token).
   */
  '2026-11-23-0201-passkey-challenge-bindings': {
    async up(db, t) {
      await db.schema.alterTable('webauthn_challenges').addColumn('session_id', t.uuid).execute()
      await db.schema
        .alterTable('webauthn_challenges')
        .addColumn('mfa_challenge_hash', 'text')
        .execute()
      await db.schema
        .createIndex('webauthn_challenges_expires_at')
        .on('webauthn_challenges')
        .column('expires_at')
        .execute()
    },
  },

  /**
   * Issue 26: mail that outlives an SMTP outage or a crash. Each mail is a row written in the
   * transaction of the change that causes it; mail/outbox.ts delivers it later, retrying, and
   * keeps the outcome. `subject` is null for a row still to be composed by the sender (a
   * recovery request: whether it becomes a mail depends on the account, decided off the
   * request's path). `text`/`html` are emptied once the row is finished: they hold live links.
   */
  '2026-11-25-0300-mail-outbox': {
    async up(db, t) {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('recipient', 'text', (column) => column.notNull())
        .addColumn('subject', 'text')
        .addColumn('text', 'text')
        .addColumn('html', 'text')
        // JSON, for a row the sender composes (the request's address and browser, for the audit).
        .addColumn('request', 'text')
        .addColumn('state', 'text', (column) =>
          column.notNull().check(sql`state in ('waiting', 'sent', 'failed')`),
        )
        .addColumn('attempts', 'integer', (column) => column.notNull())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('next_attempt_at', t.timestamp, (column) => column.notNull())
        .addColumn('claimed_by', t.uuid)
        .addColumn('claimed_until', t.timestamp)
        .addColumn('last_attempt_at', t.timestamp)
        .addColumn('last_error', 'text')
        .addColumn('finished_at', t.timestamp)
        .execute()
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .columns(['state', 'next_attempt_at'])
        .execute()
    },
  },

  /**
   * Issue 34 §7: an invitation is not an active account. The status column keeps its three
   * values (its CHECK cannot change on SQLite without rebuilding the table); an account with
   * `invitation_expires_at` set is an invitation whose person has no password yet. Accounts
   * invited before this, and never signed in nor given a password since (what the audit log
   * says), become invitations again, expiring 7 days after they were invited.
   */
  '2026-11-25-0400-pending-invitations': {
    async up(db, t) {
      await db.schema
        .alterTable('accounts')
        .addColumn('invitation_expires_at', t.timestamp)
        .execute()
      const { rows } = await sql<{ account_id: string; at: Date | string }>`
        select account_id, max(at) as at from audit_events
        where type = 'invited' and account_id is not null
          and account_id not in (
            select account_id from audit_events
            where account_id is not null
              and type in ('sign_in', 'password_reset', 'password_changed')
          )
        group by account_id`.execute(db)
      for (const row of rows) {
        const expires = new Date(new Date(row.at).getTime() + 7 * 86_400_000)
        await sql`update accounts set invitation_expires_at = ${expires}
          where id = ${row.account_id} and status <> 'pending'`.execute(db)
      }
    },
  },

  /**
   * Issue 34 §6: "Nome (A–Z)" in Portuguese order on both engines. Each account keeps its name's
   * sort key (common/name-order.ts; written with every name by db/name-columns.ts), and
   * the list orders by it byte by byte: `collate "C"` on PostgreSQL, SQLite's own BINARY. The
   * existing rows get their keys here; the empty default is only there because SQLite cannot
   * add a NOT NULL column without one.
   */
  '2026-11-26-0500-name-sort-keys': {
    async up(db) {
      await db.schema
        .alterTable('accounts')
        .addColumn('name_sort_key', 'text', (column) => column.notNull().defaultTo(''))
        .execute()
      const { rows } = await sql<{ id: string; name: string }>`
        select id, name from accounts`.execute(db)
      for (const row of rows) {
        await sql`update accounts set name_sort_key = ${nameSortKey(row.name)}
          where id = ${row.id}`.execute(db)
      }
    },
  },
  /**
   * Issue 28: single sign-on (docs/single-sign-on.md). `provider_links`: who a person is at a
   * provider (AUTH_PROVIDERS' name and the token's `sub`; gov.br's `sub` is a CPF, masked
   * wherever it is shown), with the issuer that vouched for it: a provider repointed at another
   * issuer finds none of its old links. `sign_in_hand_offs`: the single-use code between the
   * callback and the session (hand-off-codes.ts). `sessions.provider_mfa`: the session was
   * opened after a multi-factor sign-in at a provider trusted for it (TRUST_MFA). The sign-in
   * under way between the button and the callback needs no row: it is sealed in the browser's
   * cookie (pending-login.ts).
   */
  '2026-11-26-0600-provider-links': {
    async up(db, t) {
      await db.schema
        .createTable('provider_links')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('issuer', 'text', (column) => column.notNull())
        .addColumn('subject', 'text', (column) => column.notNull())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('linked_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .addColumn('last_used_at', t.timestamp)
        .addUniqueConstraint('provider_links_provider_subject', ['provider', 'subject'])
        .execute()
      await db.schema
        .createIndex('provider_links_account_id')
        .on('provider_links')
        .column('account_id')
        .execute()
      await db.schema
        .createTable('sign_in_hand_offs')
        .addColumn('code_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('redirect_target', 'text')
        .addColumn('provider_multi_factor', t.boolean, (column) => column.notNull())
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('sign_in_hand_offs_expires_at')
        .on('sign_in_hand_offs')
        .column('expires_at')
        .execute()
      await db.schema
        .alterTable('sessions')
        .addColumn('provider_mfa', t.boolean, (column) => column.notNull().defaultTo(t.false))
        .execute()
    },
  },
  /**
   * Issue 28: a provider's identity waiting to be linked by the account's password
   * (features/sign-in-with-provider/pending-links.ts): the provider did not vouch for the e-mail,
   * so the person proves the account with its password (and second factor) once. Keyed by the
   * SHA-256 of the token in the browser's cookie; 10 minutes, taken once. `challenge_hash`: the
   * second-factor challenge the right password opened, the only one that may finish the link.
   */
  '2026-11-26-0700-pending-provider-links': {
    async up(db, t) {
      await db.schema
        .createTable('pending_provider_links')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('issuer', 'text', (column) => column.notNull())
        .addColumn('subject', 'text', (column) => column.notNull())
        .addColumn('challenge_hash', 'text')
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('pending_provider_links_expires_at')
        .on('pending_provider_links')
        .column('expires_at')
        .execute()
    },
  },

  /**
   * Issue 29: roles an organisation shapes and teams (docs/roles-and-teams.md). A role is a set
   * of permissions (common/permissions.ts) with a scope; the built-in Administrador holds every
   * permission of the catalogue, present and future, without rows (roles/role-store.ts answers
   * them), Equipe none. `name_key` is the name folded for case-insensitive uniqueness
   * (db/name-key.ts), the same on both engines. accounts.role_id is the person's role;
   * accounts.role stays, kept in step by db/role-columns.ts (admin for Administrador, staff
   * for every other role), so the old `role` reads the same and the last-admin rule keeps its
   * index. role_id has no NOT NULL: SQLite adds a column with REFERENCES only with a null
   * default; every row gets one here and every insert writes one (db/schema.ts requires it).
   */
  '2026-11-27-0700-roles-and-teams': {
    async up(db, t) {
      await db.schema
        .createTable('roles')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('name_key', 'text', (column) => column.notNull().unique())
        .addColumn('description', 'text', (column) => column.notNull())
        .addColumn('scope', 'text', (column) =>
          column.notNull().check(sql`scope in ('all', 'team')`),
        )
        .addColumn('built_in', t.boolean, (column) => column.notNull().defaultTo(t.false))
        .addColumn('created_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .execute()
      await db.schema
        .createTable('role_permissions')
        .addColumn('role_id', t.uuid, (column) =>
          column.notNull().references('roles.id').onDelete('cascade'),
        )
        .addColumn('permission', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission'])
        .execute()
      await db.schema
        .createTable('teams')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('name_key', 'text', (column) => column.notNull().unique())
        .addColumn('description', 'text', (column) => column.notNull())
        .addColumn('open', t.boolean, (column) => column.notNull().defaultTo(t.false))
        .addColumn('created_at', t.timestamp, (column) => column.notNull().defaultTo(t.now))
        .execute()

      for (const [id, name, description] of [
        [BUILT_IN_ROLE_IDS.admin, 'Administrador', 'Todas as permissões, sobre todas as pessoas'],
        [BUILT_IN_ROLE_IDS.staff, 'Equipe', 'Nenhuma permissão: só a própria conta'],
      ] as const) {
        await sql`insert into roles (id, name, name_key, description, scope, built_in)
          values (${id}, ${name}, ${nameKey(name)}, ${description}, 'all', ${t.true})`.execute(db)
      }

      await db.schema
        .alterTable('accounts')
        .addColumn('role_id', t.uuid, (column) => column.references('roles.id'))
        .execute()
      await db.schema
        .alterTable('accounts')
        .addColumn('team_id', t.uuid, (column) =>
          column.references('teams.id').onDelete('set null'),
        )
        .execute()
      await sql`update accounts set role_id = ${BUILT_IN_ROLE_IDS.admin}
        where role = 'admin'`.execute(db)
      await sql`update accounts set role_id = ${BUILT_IN_ROLE_IDS.staff}
        where role <> 'admin'`.execute(db)
      await db.schema.createIndex('accounts_role_id').on('accounts').column('role_id').execute()
      await db.schema.createIndex('accounts_team_id').on('accounts').column('team_id').execute()
    },
  },
  /**
   * Issue 30: security notices (server/security-notices/). The one notice a person may turn off,
   * a sign-in from a browser new to the account, is on for everyone until they do.
   */
  '2026-11-27-3001-notice-preference': {
    async up(db, t) {
      await db.schema
        .alterTable('accounts')
        .addColumn('notice_new_browser', t.boolean, (column) => column.notNull().defaultTo(t.true))
        .execute()
    },
  },
  /**
   * Issue 30: a change of e-mail waits for the new address's confirmation
   * (features/email-change/). Each row keeps the hashes of its two mailed links (confirm, to
   * the new address; cancel, to the old one) and how it ended.
   */
  '2026-11-27-3002-email-changes': {
    async up(db, t) {
      await db.schema
        .createTable('email_changes')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('new_email', 'text', (column) => column.notNull())
        .addColumn('confirm_token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('cancel_token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .addColumn('ended_at', t.timestamp)
        .addColumn('outcome', 'text')
        .execute()
      await db.schema
        .createIndex('email_changes_account_id')
        .on('email_changes')
        .column('account_id')
        .execute()
    },
  },
  /**
   * Issue 30: a person's request that their account be deleted (features/account-deletion/).
   * No foreign key: the request outlives the account it names, as the audit log does, under
   * the id alone once the account is anonymised.
   */
  '2026-11-27-3003-deletion-requests': {
    async up(db, t) {
      await db.schema
        .createTable('deletion_requests')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) => column.notNull())
        .addColumn('requested_at', t.timestamp, (column) => column.notNull())
        .addColumn('decided_at', t.timestamp)
        .addColumn('decided_by', t.uuid)
        .addColumn('outcome', 'text')
        .addColumn('reason', 'text')
        .execute()
      await db.schema
        .createIndex('deletion_requests_account_id')
        .on('deletion_requests')
        .column('account_id')
        .execute()
    },
  },
  /**
   * Issue 28: an admin's link for a person to connect a sign-in provider
   * (features/sign-in-with-provider/link-invitations.ts). One row per person and provider (a newer
   * link replaces the older in place); the token's SHA-256 only, unique; 24 hours; deleted when
   * used. Named after the migrations of 2026-11-27 so that databases that ran them take it too.
   */
  '2026-11-28-2801-provider-link-invitations': {
    async up(db, t) {
      await db.schema
        .createTable('provider_link_invitations')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('account_id', t.uuid, (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('invited_by', t.uuid, (column) => column.notNull())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('expires_at', t.timestamp, (column) => column.notNull())
        .addUniqueConstraint('provider_link_invitations_account_provider', [
          'account_id',
          'provider',
        ])
        .execute()
      await db.schema
        .createIndex('provider_link_invitations_expires_at')
        .on('provider_link_invitations')
        .column('expires_at')
        .execute()
    },
  },
  // Issue 42's, in a file of their own: list-migrations.ts.
  ...listMigrations,
  /**
   * Issue 43: when those who may decide a request for deletion were reminded of it, so that the
   * reminder before its deadline goes once, whichever replica sends it
   * (features/account-deletion/deletion-request-mails.ts).
   */
  '2026-11-30-4301-deletion-request-reminders': {
    async up(db, t) {
      await db.schema
        .alterTable('deletion_requests')
        .addColumn('reminded_at', t.timestamp)
        .execute()
    },
  },
  // Issue 46's: provisioning-migrations.ts.
  ...provisioningMigrations,
  // Issue 42's again: list-migrations.ts.
  ...laterListMigrations,
  // Issue 46's again: provisioning-migrations.ts.
  ...laterProvisioningMigrations,
  // Issue 42's a third time: list-migrations.ts.
  ...listMigrationsAfterScimPages,
  // Issue 46's a third time: provisioning-migrations.ts.
  ...provisioningMigrationsAfterAdminLock,
  // Issue 42's a fourth time: list-migrations.ts.
  ...listMigrationsAfterScimRemovals,
}

/**
 * The order of the migrations: their names, character by character. Each begins with its date
 * and a number (`2026-11-30-4301-…`), so that is their order of writing, the same as Kysely's
 * default, `localeCompare`, gives them (migrations.test.ts). That default built a collator at
 * every start, which read 3 MB of ICU's data into the server's memory.
 */
export const migrationNameOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Whether the database has run every migration this code knows, and no other: a restart's usual
 * case, told by one read of Kysely's own table. Kysely's Migrator, asked the same, first reads
 * every table's columns and takes its lock (docs/performance.md, "A short start"). A database
 * with no such table yet, one behind, or one ahead of this code is left to the Migrator, which
 * migrates it or refuses it as before. On PostgreSQL, a replica that reads while another migrates
 * sees the names from before the migration's transaction or after it, never between.
 */
export async function isUpToDate(db: Kysely<Schema>): Promise<boolean> {
  // Asked, not tried: a failed read would put an error in PostgreSQL's log at every first start.
  const { rows } = await (
    engineOf(db) === 'sqlite'
      ? sql<{ present: number }>`select count(*) as present from sqlite_master
        where type = 'table' and name = 'kysely_migration'`
      : sql<{ present: number }>`select count(to_regclass('kysely_migration')) as present`
  ).execute(db)
  // No table yet: a first start.
  if (Number(rows[0]?.present) === 0) return false
  const ran = (await db.selectFrom('kysely_migration').select('name').execute()).map(
    (row) => row.name,
  )
  const known = Object.keys(migrations)
  const ranSet = new Set(ran)
  return ran.length === known.length && known.every((name) => ranSet.has(name))
}

/** Kysely's Migrator over this engine's migrations, in migrationNameOrder. */
export function migrator(db: Kysely<Schema>, engine: Engine): Migrator {
  return new Migrator({
    db,
    provider: migrationProvider(engine),
    nameComparator: migrationNameOrder,
  })
}

/** The migrations for one engine, as Kysely's Migrator takes them. */
export function migrationProvider(engine: Engine): MigrationProvider {
  const t = portableSql(engine)
  return {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(migrations).map(([name, migration]): [string, Migration] => [
          name,
          { up: (db) => migration.up(db, t) },
        ]),
      ),
  }
}
