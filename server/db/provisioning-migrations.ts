import { sql } from 'kysely'
import type { PortableMigration } from './portable-sql'

/**
 * Issue 46, provisioning from the organisation's directory (SCIM 2.0: features/provisioning/,
 * docs/provisioning.md). Kept apart from migrations.ts, which lists them after its own; the same
 * rules hold: never edit one that has shipped, add the next at the end.
 */
export const provisioningMigrations: Record<string, PortableMigration> = {
  /**
   * - accounts.scim_external_id: the directory's own id of the person (Entra's object id, Okta's
   *   user id), null until a directory sets it.
   * - accounts.scim_provisioned: the directory created the account. Only such an account's
   *   e-mail may be changed through SCIM: a token must not rename an admin's address to one its
   *   holder reads and then recover the password.
   * - accounts.scim_removed_at: the directory deleted the person (DELETE /Users/:id): the
   *   account stays, disabled, out of SCIM's sight; anonymising is an admin's act.
   * - teams.scim_external_id, teams.updated_at (meta.lastModified): the same for Groups. A column
   *   added to a table with rows cannot default to the clock on SQLite, so it is filled from
   *   created_at and written by every change that knows of it.
   * - scim_tokens: the provisioning tokens; the token's SHA-256 only (accounts/tokens.ts).
   */
  '2026-11-30-4601-provisioning': {
    async up(db, t) {
      await db.schema.alterTable('accounts').addColumn('scim_external_id', 'text').execute()
      await db.schema
        .alterTable('accounts')
        .addColumn('scim_provisioned', t.boolean, (column) => column.notNull().defaultTo(t.false))
        .execute()
      await db.schema.alterTable('accounts').addColumn('scim_removed_at', t.timestamp).execute()
      await db.schema.alterTable('teams').addColumn('scim_external_id', 'text').execute()
      await db.schema.alterTable('teams').addColumn('updated_at', t.timestamp).execute()
      await sql`update teams set updated_at = created_at`.execute(db)
      await db.schema
        .createIndex('accounts_scim_external_id')
        .on('accounts')
        .column('scim_external_id')
        .execute()
      await db.schema
        .createTable('scim_tokens')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('last_used_at', t.timestamp)
        .addColumn('created_by', t.uuid)
        .addColumn('created_by_name', 'text', (column) => column.notNull())
        .execute()
    },
  },
}

/** Written after issue 42's later ones: migrations.ts puts them after those. */
export const laterProvisioningMigrations: Record<string, PortableMigration> = {
  /**
   * The Users a directory may read (not deleted by it), in the order of their pages (creation,
   * then id): GET /scim/v2/Users counts them and skips to its page along this index alone
   * (features/provisioning/scim-users.ts, listUsers). Both read the whole table at 100k people:
   * the count 83 ms and a page from startIndex 99,901 140 ms more, on SQLite, the loop held. And
   * a Group's members, from an index that holds what the Group says of each (scim-groups.ts,
   * membersOf), read for every GET and every PATCH of it: a team of 11,975 took 41 ms from the
   * team's index and the table, 2 ms from this one. By hand, on the data npm run bench --
   * --only scale seeds.
   */
  '2026-12-02-4602-scim-user-pages': {
    async up(db) {
      await sql`create index accounts_scim_listed on accounts (created_at, id)
        where scim_removed_at is null`.execute(db)
      await sql`create index accounts_scim_members on accounts (team_id, id, name)
        where scim_removed_at is null`.execute(db)
    },
  },
}

/**
 * Written after issue 42's third set (the one lock for admins' changes): migrations.ts puts them
 * last.
 */
export const provisioningMigrationsAfterAdminLock: Record<string, PortableMigration> = {
  /**
   * A Group's meta.version, kept by triggers in the writing transaction whatever code writes:
   * a new random stamp whenever what the Group shows changes (its name, externalId,
   * lastModified; who is in it; a member's name). It was a digest of the whole representation,
   * made at every read: about 70 ms for a team of 12,000, the event loop held, even for a read
   * without its members (Entra's) and twice in every PATCH (by hand, on the data
   * npm run bench -- --only scale seeds). A random stamp, not a counter: a database restored
   * from a backup cannot give a later change the version an earlier answer carried.
   *
   * A table of its own, not a column of `teams`: a Group's PATCH and the teams screen's edit
   * lock the team's row first, and a move between two teams writes both teams' versions, so two
   * PATCHes moving people between the same two Groups would each hold the row the other waits
   * for. A move's two versions are written in key order, as account_tallies' rows are (4203).
   */
  '2026-12-04-4603-group-versions': {
    async up(db, t) {
      await db.schema
        .createTable('group_versions')
        .addColumn('team_id', t.uuid, (column) =>
          column.primaryKey().references('teams.id').onDelete('cascade'),
        )
        .addColumn('version', 'text', (column) => column.notNull())
        .execute()
      const fresh =
        t.engine === 'postgres'
          ? `substr(md5(random()::text || clock_timestamp()::text), 1, 16)`
          : `lower(hex(randomblob(8)))`
      const bump = (team: string) =>
        `update group_versions set version = ${fresh} where team_id = ${team}`
      const teamShown = `old.name is distinct from new.name
        or old.scim_external_id is distinct from new.scim_external_id
        or old.updated_at is distinct from new.updated_at`
      const memberShown = `old.team_id is distinct from new.team_id or old.name is distinct from new.name
        or old.scim_removed_at is distinct from new.scim_removed_at`
      if (t.engine === 'postgres') {
        await sql
          .raw(
            `create function group_versions_follow_team() returns trigger language plpgsql as $$
            begin
              if tg_op = 'INSERT' then
                insert into group_versions (team_id, version) values (new.id, ${fresh});
              elsif ${teamShown} then
                ${bump('new.id')};
              end if;
              return null;
            end $$`,
          )
          .execute(db)
        await sql`create trigger teams_group_version after insert
            or update of name, scim_external_id, updated_at on teams
            for each row execute function group_versions_follow_team()`.execute(db)
        // least() and greatest() pass over a null: a move from or to no team writes one row.
        await sql
          .raw(
            `create function group_versions_follow_member() returns trigger language plpgsql as $$
            begin
              if tg_op = 'INSERT' then
                ${bump('new.team_id')};
              elsif tg_op = 'DELETE' then
                ${bump('old.team_id')};
              elsif ${memberShown} then
                ${bump('least(old.team_id, new.team_id)')};
                if old.team_id <> new.team_id then
                  ${bump('greatest(old.team_id, new.team_id)')};
                end if;
              end if;
              return null;
            end $$`,
          )
          .execute(db)
        await sql`create trigger accounts_group_version after insert or delete
            or update of team_id, name, scim_removed_at on accounts
            for each row execute function group_versions_follow_member()`.execute(db)
      } else {
        // SQLite's `is not` is PostgreSQL's `is distinct from`.
        const sqlite = (condition: string) => condition.replaceAll('is distinct from', 'is not')
        await sql
          .raw(
            `create trigger teams_group_version_insert after insert on teams begin
              insert into group_versions (team_id, version) values (new.id, ${fresh}); end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger teams_group_version_update
              after update of name, scim_external_id, updated_at on teams
              when ${sqlite(teamShown)} begin ${bump('new.id')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger accounts_group_version_insert after insert on accounts
              when new.team_id is not null begin ${bump('new.team_id')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger accounts_group_version_delete after delete on accounts
              when old.team_id is not null begin ${bump('old.team_id')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger accounts_group_version_update
              after update of team_id, name, scim_removed_at on accounts
              when ${sqlite(memberShown)}
              begin update group_versions set version = ${fresh}
                where team_id in (old.team_id, new.team_id); end`,
          )
          .execute(db)
      }
      await sql
        .raw(`insert into group_versions (team_id, version) select id, ${fresh} from teams`)
        .execute(db)
    },
  },

  /**
   * The accounts the directory deleted, alone: GET /scim/v2/Users counts the Users as every
   * account (account_tallies) less these (features/provisioning/scim-users.ts, userTotal),
   * instead of reading an index of all the others for each page.
   */
  '2026-12-04-4604-scim-removed-accounts': {
    async up(db) {
      await sql`create index accounts_scim_removed on accounts (scim_removed_at)
        where scim_removed_at is not null`.execute(db)
    },
  },
}
