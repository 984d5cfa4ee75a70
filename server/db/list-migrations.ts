import { sql } from 'kysely'
import { keepQuotedEmails } from './quoted-emails'
import type { PortableMigration } from './portable-sql'

/**
 * Issue 42, "a year of data": every list as fast at 100,000 people and a million events as at a
 * thousand. The columns, keys and indexes that let each list read one page and count without
 * reading the table (docs/performance.md, "Lists bounded by the page", says how each list uses
 * them). Kept apart from migrations.ts, which lists them after its own; the same rules hold:
 * never edit one that has shipped, add the next at the end.
 *
 * The expressions the indexes are built on are repeated, character for character, by the
 * queries that use them (features/staff/staff-order.ts): both engines match an index on an
 * expression only when the query writes the same expression. list-plans.test.ts checks the
 * plans.
 */
export const listMigrations: Record<string, PortableMigration> = {
  /**
   * The last sign-in, kept on the account (audit-log/record-audit.ts writes it with each
   * `sign_in` event, in the sign-in's transaction) instead of found again in the whole log for
   * every page of Equipe. Back-filled from the log: one look-up per account in the
   * (account_id, type, at) index.
   */
  '2026-11-29-4201-last-sign-in': {
    async up(db, t) {
      await db.schema.alterTable('accounts').addColumn('last_sign_in_at', t.timestamp).execute()
      await sql`update accounts set last_sign_in_at = (
          select max(at) from audit_events
          where audit_events.account_id = accounts.id and audit_events.type = 'sign_in')`.execute(
        db,
      )
    },
  },

  /**
   * Whether the account has a second factor (a confirmed authenticator app or a passkey), kept
   * on the account by triggers on totp_factors and passkeys, whatever code writes them: Equipe
   * filters and counts by it as by any other column (it was two subqueries asked of every row).
   */
  '2026-11-29-4201-second-factor-flag': {
    async up(db, t) {
      await db.schema
        .alterTable('accounts')
        .addColumn('mfa', t.boolean, (column) => column.notNull().defaultTo(t.false))
        .execute()
      const has = (id: string) =>
        `(exists (select 1 from totp_factors where totp_factors.account_id = ${id} and totp_factors.confirmed_at is not null) or exists (select 1 from passkeys where passkeys.account_id = ${id}))`
      const follow = (id: string) =>
        `update accounts set mfa = ${has(id)} where accounts.id = ${id}`
      if (t.engine === 'postgres') {
        await sql
          .raw(
            `create function accounts_mfa_follow() returns trigger language plpgsql as $$
            begin
              if tg_op in ('UPDATE', 'DELETE') then ${follow('old.account_id')}; end if;
              if tg_op in ('INSERT', 'UPDATE') then ${follow('new.account_id')}; end if;
              return null;
            end $$`,
          )
          .execute(db)
        for (const table of ['totp_factors', 'passkeys']) {
          await sql
            .raw(
              `create trigger ${table}_mfa after insert or update or delete on ${table}
              for each row execute function accounts_mfa_follow()`,
            )
            .execute(db)
        }
      } else {
        for (const table of ['totp_factors', 'passkeys']) {
          await sql
            .raw(
              `create trigger ${table}_mfa_insert after insert on ${table} begin ${follow('new.account_id')}; end`,
            )
            .execute(db)
          await sql
            .raw(
              `create trigger ${table}_mfa_update after update on ${table} begin ${follow('old.account_id')}; ${follow('new.account_id')}; end`,
            )
            .execute(db)
          await sql
            .raw(
              `create trigger ${table}_mfa_delete after delete on ${table} begin ${follow('old.account_id')}; end`,
            )
            .execute(db)
        }
      }
      await sql.raw(`update accounts set mfa = ${has('accounts.id')}`).execute(db)
    },
  },

  /**
   * An index for each order of Equipe and each filter it offers with the default order, so a
   * page is read as a range of one index from its cursor (features/staff/staff-order.ts), and the
   * audit log's pages by person (whom, or who did it) and by type, ending with the id as the
   * log's own order does (the older indexes lacked it: the page's ties were sorted apart, and
   * SQLite sorted the whole range). `rank`: pending registrations first;
   * `shown`: the status Equipe shows (an open invitation is `invited`). Names in byte order on
   * both engines (`collate "C"` on PostgreSQL, SQLite's own BINARY; db/portable-sql.ts). The
   * narrower indexes give way to the wider ones that begin with the same columns.
   */
  '2026-11-29-4202-list-indexes': {
    async up(db, t) {
      const rank = `(case when status = 'pending' then 0 else 1 end)`
      const shown = `(case when status = 'active' and invitation_expires_at is not null then 'invited' else status end)`
      const byName =
        t.engine === 'postgres'
          ? `name_sort_key collate "C", name collate "C", id`
          : `name_sort_key, name, id`
      const indexes: [string, string][] = [
        ['accounts_order_default', `${rank}, ${byName}`],
        ['accounts_order_name', byName],
        ['accounts_order_created', 'created_at, id'],
        ['accounts_order_last_sign_in', 'last_sign_in_at, id'],
        ['accounts_shown_status', `${shown}, ${byName}`],
        ['accounts_role_order', `role_id, ${rank}, ${byName}`],
        ['accounts_team_order', `team_id, ${rank}, ${byName}`],
        ['accounts_mfa_order', `mfa, ${rank}, ${byName}`],
        ['accounts_pending_since', 'status, created_at'],
        ['audit_events_account_at', 'account_id, at, id'],
        ['audit_events_actor_at', 'actor_id, at, id'],
        ['audit_events_type_at', 'type, at, id'],
      ]
      for (const old of [
        'accounts_role_id',
        'accounts_team_id',
        'audit_events_actor',
        'audit_events_type',
      ]) {
        await db.schema.dropIndex(old).execute()
      }
      for (const [name, columns] of indexes) {
        const table = name.startsWith('audit') ? 'audit_events' : 'accounts'
        await sql.raw(`create index ${name} on ${table} (${columns})`).execute(db)
      }
      // PostgreSQL keeps figures on an indexed expression only from its next ANALYZE: without
      // them it guesses how many people are pending, and may plan a page as for thousands.
      if (t.engine === 'postgres') await sql`analyze accounts`.execute(db)
    },
  },

  /**
   * How many accounts there are of each team, role, status (the status Equipe shows) and
   * second factor or none, kept
   * by triggers on `accounts` in the writing transaction, whatever code writes: Equipe's total
   * and Início's figures are a sum of a few rows instead of a count of the table. `team_key` is
   * the team's id or '' for no team (a key column cannot be null). On PostgreSQL the trigger
   * changes the two rows a move touches in key order, so that two moves in opposite directions
   * cannot deadlock.
   */
  '2026-11-29-4203-account-tallies': {
    async up(db, t) {
      await db.schema
        .createTable('account_tallies')
        .addColumn('team_key', 'text', (column) => column.notNull())
        .addColumn('role_id', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('mfa', t.boolean, (column) => column.notNull())
        .addColumn('count', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('account_tallies_pk', ['team_key', 'role_id', 'status', 'mfa'])
        .execute()
      const key = (row: 'new' | 'old') =>
        `coalesce(cast(${row}.team_id as text), ''), coalesce(cast(${row}.role_id as text), ''), ` +
        `(case when ${row}.status = 'active' and ${row}.invitation_expires_at is not null then 'invited' else ${row}.status end), ` +
        `${row}.mfa`
      const add = (row: 'new' | 'old') =>
        `insert into account_tallies (team_key, role_id, status, mfa, count) values (${key(row)}, 1)
          on conflict (team_key, role_id, status, mfa) do update set count = account_tallies.count + 1`
      const remove = (row: 'new' | 'old') => `update account_tallies set count = count - 1
          where (team_key, role_id, status, mfa) = (${key(row)})`
      if (t.engine === 'postgres') {
        await sql
          .raw(
            `create function account_tallies_follow() returns trigger language plpgsql as $$
            begin
              if tg_op = 'INSERT' then
                ${add('new')};
              elsif tg_op = 'DELETE' then
                ${remove('old')};
              elsif row(${key('old')}) is distinct from row(${key('new')}) then
                if row(${key('old')}) < row(${key('new')}) then
                  ${remove('old')};
                  ${add('new')};
                else
                  ${add('new')};
                  ${remove('old')};
                end if;
              end if;
              return null;
            end $$`,
          )
          .execute(db)
        await sql`create trigger accounts_tallies after insert or delete
            or update of status, invitation_expires_at, team_id, role_id, mfa on accounts
            for each row execute function account_tallies_follow()`.execute(db)
      } else {
        await sql
          .raw(
            `create trigger accounts_tally_insert after insert on accounts begin ${add('new')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger accounts_tally_delete after delete on accounts begin ${remove('old')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger accounts_tally_update after update of status, invitation_expires_at, team_id, role_id, mfa
            on accounts when (${key('old')}) is not (${key('new')})
            begin ${remove('old')}; ${add('new')}; end`,
          )
          .execute(db)
      }
      await sql
        .raw(
          `insert into account_tallies (team_key, role_id, status, mfa, count)
          select coalesce(cast(team_id as text), ''), coalesce(cast(role_id as text), ''),
            (case when status = 'active' and invitation_expires_at is not null then 'invited' else status end),
            mfa, count(*)
          from accounts group by 1, 2, 3, 4`,
        )
        .execute(db)
    },
  },

  /**
   * Sign-ins per UTC day and team (the person's team when they signed in; '' for none or for an
   * address no account has), kept by audit-log/record-audit.ts with each `sign_in` and
   * `sign_in_failed`: Início's chart of 14 days reads 14 rows per team instead of every sign-in.
   * Back-filled for the days the chart can show.
   */
  '2026-11-29-4204-sign-in-days': {
    async up(db, t) {
      await db.schema
        .createTable('sign_in_days')
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('team_key', 'text', (column) => column.notNull())
        .addColumn('succeeded', 'integer', (column) => column.notNull())
        .addColumn('failed', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('sign_in_days_pk', ['day', 'team_key'])
        .execute()
      const since = new Date(Date.now() - 31 * 86_400_000)
      const day =
        t.engine === 'postgres'
          ? sql`to_char(audit_events.at at time zone 'UTC', 'YYYY-MM-DD')`
          : sql`substr(audit_events.at, 1, 10)`
      await sql`insert into sign_in_days (day, team_key, succeeded, failed)
        select ${day}, coalesce(cast(accounts.team_id as text), ''),
          sum(case when audit_events.type = 'sign_in' then 1 else 0 end),
          sum(case when audit_events.type = 'sign_in' then 0 else 1 end)
        from audit_events left join accounts on accounts.id = audit_events.account_id
        where audit_events.type in ('sign_in', 'sign_in_failed') and audit_events.at >= ${since}
        group by 1, 2`.execute(db)
    },
  },

  /**
   * Search by a part of a name or an e-mail, accents and case ignored ("joao" finds João), from
   * an index rather than by reading every account: the names' sort keys (common/name-order.ts)
   * are already folded, so both engines index those and the e-mails by trigrams.
   * - PostgreSQL: pg_trgm's GIN index on the two columns (pg_trgm ships with PostgreSQL, in
   *   Debian's postgresql package and the official images; it is a trusted extension, so the
   *   database's owner may create it). Where it cannot be created the search still works, by
   *   reading the list (docs/performance.md).
   * - SQLite: an FTS5 index with the trigram tokenizer over `account_search`, a copy of each
   *   account's sort key and e-mail kept by triggers. The copy has an INTEGER PRIMARY KEY for the
   *   index to point at: `accounts` has a text key, and the rowid of such a table may change in
   *   a VACUUM (the backups are made with VACUUM INTO).
   */
  '2026-11-29-4205-account-search': {
    async up(db, t) {
      if (t.engine === 'postgres') {
        const { rows } = await sql<{ available: boolean }>`
          select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available`.execute(
          db,
        )
        if (!rows[0]?.available) return
        await sql`savepoint account_search`.execute(db)
        try {
          await sql`create extension if not exists pg_trgm`.execute(db)
        } catch {
          // Not allowed to (a role that does not own the database): the search reads the list.
          await sql`rollback to savepoint account_search`.execute(db)
          return
        }
        await sql`create index accounts_search on accounts
          using gin (name_sort_key gin_trgm_ops, email gin_trgm_ops)`.execute(db)
        return
      }
      await sql`create table account_search (
          search_id integer primary key,
          account_id text not null unique,
          name_key text not null,
          email text not null)`.execute(db)
      await sql`create virtual table account_search_index using fts5(
          name_key, email, content = 'account_search', content_rowid = 'search_id',
          tokenize = 'trigram')`.execute(db)
      await sql`insert into account_search (account_id, name_key, email)
          select id, name_sort_key, email from accounts`.execute(db)
      await sql`insert into account_search_index (account_search_index) values ('rebuild')`.execute(
        db,
      )
      for (const statement of [
        `create trigger account_search_insert after insert on accounts begin
          insert into account_search (account_id, name_key, email)
          values (new.id, new.name_sort_key, new.email); end`,
        `create trigger account_search_update after update of name_sort_key, email on accounts begin
          update account_search set name_key = new.name_sort_key, email = new.email
          where account_id = new.id; end`,
        `create trigger account_search_delete after delete on accounts begin
          delete from account_search where account_id = old.id; end`,
        `create trigger account_search_index_insert after insert on account_search begin
          insert into account_search_index (rowid, name_key, email)
          values (new.search_id, new.name_key, new.email); end`,
        `create trigger account_search_index_delete after delete on account_search begin
          insert into account_search_index (account_search_index, rowid, name_key, email)
          values ('delete', old.search_id, old.name_key, old.email); end`,
        `create trigger account_search_index_update after update on account_search begin
          insert into account_search_index (account_search_index, rowid, name_key, email)
          values ('delete', old.search_id, old.name_key, old.email);
          insert into account_search_index (rowid, name_key, email)
          values (new.search_id, new.name_key, new.email); end`,
      ]) {
        await sql.raw(statement).execute(db)
      }
    },
  },

  /**
   * The locks in force, found by their end (Equipe's "locked" filter read them so until 4208): the
   * "locked" filter asked every row of sign_in_limits, one for each account and address that
   * failed a sign-in within the day, and at a year's size that read was most of the request
   * (npm run bench -- --only scale: 306 ms on PostgreSQL at 100k people / 1M events).
   */
  '2026-11-29-4206-locks-in-force': {
    async up(db, t) {
      await db.schema
        .createIndex('sign_in_limits_blocked_until')
        .on('sign_in_limits')
        .column('blocked_until')
        .execute()
      if (t.engine === 'postgres') await sql`analyze sign_in_limits`.execute(db)
    },
  },
}

/** Issue 42's, written after issue 46's: migrations.ts puts them after those. */
export const laterListMigrations: Record<string, PortableMigration> = {
  /**
   * The e-mail at the end of the two name orders' indexes, so that a search reads its window
   * (features/staff/staff-list.ts, windowPage) from the index alone: a term that matches few of
   * the window's accounts ("joao" among names in the j's) looked each of them up in the table
   * for its e-mail, 2,000 lookups (6.3 ms on SQLite at 100k people against 0.2 ms from the index:
   * the walk timed alone on the data npm run bench -- --only scale seeds). The orders are the same, so every other plan is too. SQLite
   * only: PostgreSQL reads a row's heap before it filters it, index or not, and with the e-mail in
   * the name order's index it counted a search's matches along that order instead (6.6 ms for
   * "joao", whose matches sit in the j's, against 0.7 ms without: EXPLAIN ANALYZE, same data).
   */
  '2026-12-01-4207-search-from-the-index': {
    async up(db, t) {
      if (t.engine === 'postgres') return
      const rank = `(case when status = 'pending' then 0 else 1 end)`
      const byName = `name_sort_key, name, id`
      for (const [name, columns] of [
        ['accounts_order_default', `${rank}, ${byName}, email`],
        ['accounts_order_name', `${byName}, email`],
      ] as const) {
        await db.schema.dropIndex(name).execute()
        await sql.raw(`create index ${name} on accounts (${columns})`).execute(db)
      }
    },
  },

  /**
   * The end of an account's lock, on the account (`locked_until`), kept by triggers whatever
   * writes sign_in_limits or the account's e-mail, and indexes of Equipe's orders over the
   * accounts that have one. The "locked" filter then reads its page along its order among the
   * locked accounts alone, as any other page: it found the locks in force first and looked up
   * and sorted every one of their accounts, which cost as many rows as there were locks (500 at
   * 100k people in npm run bench -- --only scale: 9 ms on SQLite, 24.6 ms on PostgreSQL, against
   * 1.3 and 6.7 ms at 1k). A lock that ended stays on the account until its row goes (housekeeping
   * drops it within the day, sign-in-limits.ts): the filter skips it (locked_until > now).
   */
  '2026-12-01-4208-locks-on-the-account': {
    async up(db, t) {
      await db.schema.alterTable('accounts').addColumn('locked_until', t.timestamp).execute()
      const key = (email: string) => `'account:' || ${email}`
      // A count below the rule's threshold holds no lock: blocked_until is then the epoch
      // (NO_WAIT in accounts/sign-in-limits.ts), and the account none.
      const lockEnd = (row: string) =>
        `(case when ${row}.blocked_until > '1970-01-01T00:00:00.000Z' then ${row}.blocked_until end)`
      const lockOf = (email: string) =>
        `(select ${lockEnd('sign_in_limits')} from sign_in_limits where sign_in_limits.key = ${key(email)})`
      const changed = `old.key is distinct from new.key or old.account is distinct from new.account
        or old.blocked_until is distinct from new.blocked_until`
      if (t.engine === 'postgres') {
        await sql
          .raw(
            `create function account_lock_follows_limits() returns trigger language plpgsql as $$
            begin
              if tg_op = 'UPDATE' and not (${changed}) then
                return null;
              end if;
              if (tg_op = 'DELETE' or old.key is distinct from new.key
                  or old.account is distinct from new.account)
                  and old.key = ${key('old.account')} then
                update accounts set locked_until = null
                  where email = old.account and locked_until is not null;
              end if;
              if tg_op in ('INSERT', 'UPDATE') and new.key = ${key('new.account')} then
                update accounts set locked_until = ${lockEnd('new')}
                  where email = new.account and locked_until is distinct from ${lockEnd('new')};
              end if;
              return null;
            end $$`,
          )
          .execute(db)
        await sql`create trigger sign_in_limits_account_lock after insert or delete
            or update of key, account, blocked_until on sign_in_limits
            for each row execute function account_lock_follows_limits()`.execute(db)
        await sql
          .raw(
            `create function account_lock_follows_email() returns trigger language plpgsql as $$
            begin
              new.locked_until := ${lockOf('new.email')};
              return new;
            end $$`,
          )
          .execute(db)
        await sql`create trigger accounts_lock_by_email before insert or update of email
            on accounts for each row execute function account_lock_follows_email()`.execute(db)
      } else {
        for (const statement of [
          `create trigger sign_in_limits_lock_insert after insert on sign_in_limits
            when new.key = ${key('new.account')}
            begin update accounts set locked_until = ${lockEnd('new')}
              where email = new.account and locked_until is not ${lockEnd('new')}; end`,
          `create trigger sign_in_limits_lock_update after update of key, account, blocked_until
            on sign_in_limits when ${changed.replace(/is distinct from/g, 'is not')}
            begin
              update accounts set locked_until = null
                where email = old.account and old.key = ${key('old.account')}
                  and (old.key is not new.key or old.account is not new.account)
                  and locked_until is not null;
              update accounts set locked_until = ${lockEnd('new')}
                where email = new.account and new.key = ${key('new.account')}
                  and locked_until is not ${lockEnd('new')};
            end`,
          `create trigger sign_in_limits_lock_delete after delete on sign_in_limits
            when old.key = ${key('old.account')}
            begin update accounts set locked_until = null
              where email = old.account and locked_until is not null; end`,
          // An account made, or given an e-mail, that a lock already names (its owner's
          // guesses came first).
          `create trigger accounts_lock_insert after insert on accounts
            when ${lockOf('new.email')} is not null
            begin update accounts set locked_until = ${lockOf('new.email')} where id = new.id; end`,
          `create trigger accounts_lock_email after update of email on accounts
            when new.email is not old.email
            begin update accounts set locked_until = ${lockOf('new.email')} where id = new.id; end`,
        ]) {
          await sql.raw(statement).execute(db)
        }
      }
      await sql
        .raw(
          `update accounts set locked_until = ${lockOf('accounts.email')}
          where ${lockOf('accounts.email')} is not null`,
        )
        .execute(db)
      const rank = `(case when status = 'pending' then 0 else 1 end)`
      const byName =
        t.engine === 'postgres'
          ? `name_sort_key collate "C", name collate "C", id`
          : `name_sort_key, name, id`
      for (const [name, columns, also] of [
        ['accounts_locked_default', `${rank}, ${byName}`],
        ['accounts_locked_name', byName],
        ['accounts_locked_created', 'created_at, id'],
        ['accounts_locked_last_sign_in', 'last_sign_in_at, id'],
        // Those who never signed in, by id: PostgreSQL orders by the id after an equality on
        // the index's first column, not after `is null`.
        ['accounts_locked_never_signed_in', 'id', 'and last_sign_in_at is null'],
      ] as const) {
        await sql
          .raw(
            `create index ${name} on accounts (${columns}) where locked_until is not null ${also ?? ''}`,
          )
          .execute(db)
      }
      if (t.engine === 'postgres') await sql`analyze accounts`.execute(db)
    },
  },

  /**
   * An account's creation time to the millisecond, as JavaScript holds it. Equipe's cursors carry
   * the last row's time as the app reads it (features/staff/staff-order.ts, positionOf), and
   * PostgreSQL's now() has microseconds: sorted by creation, each next page began with the last
   * person of the page before, or, newest first, passed over whoever was made in the same
   * millisecond (creation-order-api.test.ts). SQLite's default is already to the millisecond.
   */
  '2026-12-02-4209-creation-to-the-millisecond': {
    async up(db, t) {
      if (t.engine !== 'postgres') return
      await sql`alter table accounts
        alter column created_at set default date_trunc('milliseconds', now())`.execute(db)
      await sql`update accounts set created_at = date_trunc('milliseconds', created_at)
        where created_at <> date_trunc('milliseconds', created_at)`.execute(db)
    },
  },
}

/** Issue 42's, written after issue 46's second (its SCIM pages): migrations.ts puts them last. */
export const listMigrationsAfterScimPages: Record<string, PortableMigration> = {
  /**
   * The e-mail at the end of the name order's indexes within a filter's segment too (a status, a
   * role, a team, a second factor), as 4207 put it on the two without one, and for the same
   * reason: a search within a filter reads its window along one of these, and without the e-mail
   * each account of the window was looked up in the table for its LIKE. "joao" among the active
   * at 100k people read 1,961 pages of the file for its window, against 80 with the e-mail in the
   * index: 60 ms in a server's first request (nothing cached yet), 3.0 ms after, against 2.5 and
   * 0.4 ms (the query alone, by hand, on the data npm run bench -- --only scale seeds). SQLite
   * only, as 4207.
   */
  '2026-12-03-4210-filtered-search-from-the-index': {
    async up(db, t) {
      if (t.engine === 'postgres') return
      const rank = `(case when status = 'pending' then 0 else 1 end)`
      const shown = `(case when status = 'active' and invitation_expires_at is not null then 'invited' else status end)`
      const byName = `name_sort_key, name, id, email`
      for (const [name, columns] of [
        ['accounts_shown_status', `${shown}, ${byName}`],
        ['accounts_role_order', `role_id, ${rank}, ${byName}`],
        ['accounts_team_order', `team_id, ${rank}, ${byName}`],
        ['accounts_mfa_order', `mfa, ${rank}, ${byName}`],
      ] as const) {
        await db.schema.dropIndex(name).execute()
        await sql.raw(`create index ${name} on accounts (${columns})`).execute(db)
      }
    },
  },

  /**
   * One row every change an admin makes to an account locks first
   * (accounts/account-administration.ts, lockAdminChanges). They locked every active
   * Administrador's row instead, with an UPDATE that changed nothing: 912 rows written at 100k
   * people (the data npm run bench -- --only scale seeds), about 60 ms on SQLite with the event
   * loop held, twice in a directory's PATCH of a Group, and on PostgreSQL a new version of each of
   * those rows every time.
   */
  '2026-12-03-4211-one-lock-for-admin-changes': {
    async up(db) {
      await db.schema
        .createTable('account_change_lock')
        .addColumn('id', 'integer', (column) => column.primaryKey())
        .execute()
      await sql`insert into account_change_lock (id) values (1)`.execute(db)
    },
  },
}

/** Issue 42's, written after issue 46's third (directory-removed accounts): migrations.ts puts them last. */
export const listMigrationsAfterScimRemovals: Record<string, PortableMigration> = {
  /**
   * The e-mail addresses each event's details quote (quoted-emails.ts), kept beside the
   * log by recordAudit: an anonymisation found the events of others quoting the person's address
   * (a failed sign-in tried with it) with a LIKE over every event's details, which read the whole
   * log with SQLite's event loop held (33 ms at 100k events, in proportion beyond). Back-filled
   * from the events whose details hold an `@`, ten thousand at a time along the log's key.
   */
  '2026-12-05-4212-emails-in-audit-details': {
    async up(db, t) {
      await db.schema
        .createTable('audit_event_emails')
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('event_id', t.uuid, (column) =>
          column.notNull().references('audit_events.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('audit_event_emails_pk', ['email', 'event_id'])
        .execute()
      // A pruned event's rows are found by it, not by reading the table.
      await db.schema
        .createIndex('audit_event_emails_event')
        .on('audit_event_emails')
        .column('event_id')
        .execute()
      let after: string | null = null
      for (;;) {
        const { rows: events } = await sql<{ id: string; details: string }>`
          select id, details from audit_events
          where details like '%@%' ${after === null ? sql`` : sql`and id > ${after}`}
          order by id limit 10000`.execute(db)
        if (events.length === 0) break
        after = events.at(-1)!.id
        await keepQuotedEmails(db, events)
      }
    },
  },

  /**
   * A team's people by role, in name order: Times names a team's first managers
   * (roles/team-store.ts, listTeams) from here. Along the team's name order (4202's
   * accounts_team_order) a team of 12,000 with two managers late in the alphabet was read whole,
   * every account looked up for its role: 108 ms for Times at 100k people in 8 such teams, on
   * SQLite with its loop held (by hand, on the data npm run bench -- --only scale seeds, its
   * managers cut to two a team, 2026-12-01).
   */
  '2026-12-05-4213-team-managers-in-order': {
    async up(db, t) {
      const rank = `(case when status = 'pending' then 0 else 1 end)`
      const byName =
        t.engine === 'postgres'
          ? `name_sort_key collate "C", name collate "C", id`
          : `name_sort_key, name, id`
      await sql
        .raw(
          `create index accounts_team_role_order on accounts (team_id, role_id, ${rank}, ${byName})`,
        )
        .execute(db)
    },
  },
}
