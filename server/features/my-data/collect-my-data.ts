import type { MyData } from '../../../common/api/my-data'
import { toAuditEvent } from '../../audit-log/audit-query'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'

const iso = (date: Date) => date.toISOString()
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null)

/**
 * Everything the panel holds about one person (common/api/my-data.ts; each table's fields and
 * how long they are kept: docs/personal-data.md), read in one transaction so the copy is of one
 * moment. Secrets are left out by naming the columns read: a new column is not exported until
 * someone decides it should be.
 */
export async function collectMyData(db: Db, account: Account, now: Date): Promise<MyData> {
  return db.transaction().execute(async (trx) => {
    const [
      place,
      sessions,
      devices,
      passkeys,
      totp,
      codes,
      links,
      linkInvitations,
      changes,
      limits,
      mails,
      events,
    ] = await Promise.all([
      // The role and team by name: "staff" alone does not tell a team's manager what they are.
      trx
        .selectFrom('roles')
        .leftJoin('teams', (join) => join.on('teams.id', '=', account.team_id))
        .select(['roles.name as roleName', 'teams.name as teamName'])
        .where('roles.id', '=', account.role_id)
        .executeTakeFirst(),
      trx
        .selectFrom('sessions')
        .select([
          'id',
          'created_at',
          'last_seen_at',
          'expires_at',
          'ended_at',
          'end_reason',
          'ip',
          'browser',
        ])
        .where('account_id', '=', account.id)
        .orderBy('created_at', 'desc')
        .execute(),
      trx
        .selectFrom('trusted_devices')
        .select('expires_at')
        .where('account_id', '=', account.id)
        .orderBy('expires_at', 'desc')
        .execute(),
      trx
        .selectFrom('passkeys')
        .select(['id', 'name', 'created_at', 'last_used_at'])
        .where('account_id', '=', account.id)
        .orderBy('created_at')
        .execute(),
      trx
        .selectFrom('totp_factors')
        .select('confirmed_at')
        .where('account_id', '=', account.id)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst(),
      trx
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('account_id', '=', account.id)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('provider_links')
        .select(['provider', 'subject', 'linked_at', 'last_used_at'])
        .where('account_id', '=', account.id)
        .orderBy('linked_at')
        .execute(),
      // Not the pending links of a sign-in waiting for a password (features/sign-in-with-provider/
      // pending-links.ts): their subject is whoever came back from the provider, maybe someone
      // else, and they last ten minutes.
      trx
        .selectFrom('provider_link_invitations')
        .select(['provider', 'created_at', 'expires_at'])
        .where('account_id', '=', account.id)
        .orderBy('created_at')
        .execute(),
      trx
        .selectFrom('email_changes')
        .select(['new_email', 'created_at', 'expires_at', 'ended_at', 'outcome'])
        .where('account_id', '=', account.id)
        .orderBy('created_at', 'desc')
        .execute(),
      trx
        .selectFrom('sign_in_limits')
        .select(['count', 'window_ends_at', 'blocked_until'])
        .where('account', '=', account.email)
        .execute(),
      trx
        .selectFrom('mail_outbox')
        .select(['kind', 'recipient', 'subject', 'state', 'created_at', 'finished_at'])
        .where((eb) =>
          eb.or([
            eb('recipient', '=', account.email),
            eb(
              'recipient',
              'in',
              eb
                .selectFrom('email_changes')
                .select('new_email')
                .where('account_id', '=', account.id),
            ),
          ]),
        )
        .orderBy('created_at', 'desc')
        .execute(),
      trx
        .selectFrom('audit_events')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('account_id', '=', account.id),
            eb('actor_id', '=', account.id),
            // Events of nobody's that quote its address (a sign-in tried with it before it had
            // an account, or by someone who does not know it): an anonymisation replaces the
            // address there as the person's (features/account-deletion/anonymise-account.ts).
            // Only the confirmed address: one asked for in an e-mail change may be anyone's.
            eb.and([
              eb('account_id', 'is', null),
              eb('actor_id', 'is', null),
              eb(
                'id',
                'in',
                eb
                  .selectFrom('audit_event_emails')
                  .select('event_id')
                  .where('email', '=', account.email),
              ),
            ]),
          ]),
        )
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    ])
    return {
      generatedAt: iso(now),
      account: {
        id: account.id,
        name: account.name,
        email: account.email,
        role: account.role,
        roleName: place?.roleName ?? null,
        teamName: place?.teamName ?? null,
        status: account.status,
        createdAt: iso(account.created_at),
        updatedAt: iso(account.updated_at),
        invitationExpiresAt: isoOrNull(account.invitation_expires_at),
        newBrowserNotice: account.notice_new_browser,
      },
      sessions: sessions.map((row) => ({
        id: row.id,
        createdAt: iso(row.created_at),
        lastSeenAt: iso(row.last_seen_at),
        expiresAt: iso(row.expires_at),
        endedAt: isoOrNull(row.ended_at),
        endReason: row.end_reason,
        ip: row.ip,
        browser: row.browser,
      })),
      browsers: devices.map((row) => ({ trustedUntil: iso(row.expires_at) })),
      passkeys: passkeys.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: iso(row.created_at),
        lastUsedAt: isoOrNull(row.last_used_at),
      })),
      secondFactor: {
        totp: totp !== undefined,
        totpSince: isoOrNull(totp?.confirmed_at ?? null),
        recoveryCodesLeft: Number(codes.count),
      },
      providers: links.map((row) => ({
        provider: row.provider,
        subject: row.subject,
        linkedAt: iso(row.linked_at),
        lastUsedAt: isoOrNull(row.last_used_at),
      })),
      providerLinkInvitations: linkInvitations.map((row) => ({
        provider: row.provider,
        sentAt: iso(row.created_at),
        expiresAt: iso(row.expires_at),
      })),
      emailChanges: changes.map((row) => ({
        newEmail: row.new_email,
        createdAt: iso(row.created_at),
        expiresAt: iso(row.expires_at),
        endedAt: isoOrNull(row.ended_at),
        outcome: row.outcome,
      })),
      signInLimits: limits.map((row) => ({
        failures: row.count,
        windowEndsAt: iso(row.window_ends_at),
        blockedUntil: iso(row.blocked_until),
      })),
      mails: mails.map((row) => ({
        kind: row.kind,
        to: row.recipient,
        subject: row.subject,
        state: row.state,
        createdAt: iso(row.created_at),
        finishedAt: isoOrNull(row.finished_at),
      })),
      auditEvents: events.map((row) => {
        const event = toAuditEvent(row)
        // Where a try with its address came from is whoever tried's, not the person's.
        const theirs = row.account_id === account.id || row.actor_id === account.id
        return theirs ? event : { ...event, ip: null, userAgent: null, browser: null }
      }),
    }
  })
}
