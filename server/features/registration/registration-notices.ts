import { isTeamManagerSql } from '../../roles/team-store'
import { newRegistrationsMail } from '../../mail/admin-mails'
import type { ApiContext } from '../../api/api-context'

/** What the notices need of the API's context. */
type NoticeContext = Pick<ApiContext, 'db' | 'outbox' | 'log'> & {
  config: Pick<ApiContext['config'], 'publicUrl'>
}

/** An admin gets at most one "new registrations" mail in this time. */
export const NOTICE_INTERVAL_MS = 15 * 60 * 1000

/**
 * Tells every active admin about registrations that arrived since their last mail, at most one
 * mail per admin per 15 minutes: a burst of sign-ups is one mail listing them all. Runs when a
 * registration arrives and every minute (to send what the limit held back). The database keeps
 * when each admin was mailed and up to which registration, and queues the mail in the same
 * transaction, so a restart neither repeats nor loses a mail (two replicas at the same moment
 * could, rarely, both queue one).
 */
export async function notifyAdminsOfRegistrations(deps: NoticeContext, now = new Date()) {
  // The admins, and each team's managers (roles/team-store.ts), who are told only of the
  // registrations naming their own team.
  const admins = await deps.db
    .selectFrom('accounts')
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .leftJoin('registration_notices', 'registration_notices.admin_id', 'accounts.id')
    .select([
      'accounts.id',
      'accounts.name',
      'accounts.email',
      'accounts.role',
      'accounts.team_id',
      'registration_notices.last_sent_at',
      'registration_notices.covered_until',
    ])
    .where('accounts.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb('accounts.role', '=', 'admin'),
        eb.and([eb('accounts.team_id', 'is not', null), isTeamManagerSql]),
      ]),
    )
    .execute()
  for (const admin of admins) {
    if (admin.last_sent_at && now.getTime() - admin.last_sent_at.getTime() < NOTICE_INTERVAL_MS) {
      continue
    }
    let waiting = deps.db
      .selectFrom('accounts')
      .select(['name', 'email', 'created_at'])
      .where('status', '=', 'pending')
    if (admin.role !== 'admin') waiting = waiting.where('team_id', '=', admin.team_id)
    if (admin.covered_until) {
      // PostgreSQL keeps microseconds and the mark has milliseconds: start after its millisecond.
      waiting = waiting.where('created_at', '>=', new Date(admin.covered_until.getTime() + 1))
    }
    const fresh = await waiting.orderBy('created_at').limit(50).execute()
    const newest = fresh.at(-1)
    if (!newest) continue
    const row = {
      admin_id: admin.id,
      last_sent_at: now,
      covered_until: newest.created_at,
    }
    const equipe = `${deps.config.publicUrl}/#/equipe?status=pending`
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('registration_notices')
        .values(row)
        .onConflict((conflict) =>
          conflict
            .column('admin_id')
            .doUpdateSet({ last_sent_at: row.last_sent_at, covered_until: row.covered_until }),
        )
        .execute()
      const mail = newRegistrationsMail(admin.email, admin.name, fresh, equipe)
      await deps.outbox.queue(trx, 'new_registrations', mail)
    })
    deps.outbox.wake()
  }
}

/** One run at a time in this process; a failure is logged and the next run tries again. */
export function registrationNotifier(deps: NoticeContext) {
  let running = Promise.resolve()
  return {
    run(): Promise<void> {
      running = running.then(() =>
        notifyAdminsOfRegistrations(deps).catch((error: unknown) =>
          deps.log.warn({ err: error }, 'new-registration mails failed; will retry'),
        ),
      )
      return running
    },
    /** Resolves when the run under way (if any) is over: before the database closes. */
    settled: () => running,
  }
}
