import { isTeamManagerSql } from '../../roles/team-store'
import { newRegistrationsMail } from '../../mail/admin-mails'
import type { ApiContext } from '../../api/api-context'

/** What the notices need of the API's context. */
type NoticeContext = Pick<ApiContext, 'db' | 'outbox' | 'log'> & {
  config: Pick<ApiContext['config'], 'publicUrl'>
}

/**
 * An admin gets at most one "new registrations" mail in this time. A minute: the first
 * registration is mailed at once, and what a burst brings after it goes a minute later in one
 * mail (docs/administration.md says so). It was 15 minutes, and a burst's later sign-ups waited
 * that long, while the docs promised a minute.
 */
export const NOTICE_INTERVAL_MS = 60 * 1000

/**
 * Tells every active admin about registrations that arrived since their last mail, at most one
 * mail per admin per NOTICE_INTERVAL_MS: a burst of sign-ups is a mail for the first and one
 * listing all the others. Runs when a registration arrives, when the interval of a mail that
 * held some back ends (registrationNotifier), and every minute (another replica's registrations,
 * a restart). The database keeps when each admin was mailed and up to which registration, and
 * queues the mail in the same transaction, only if the mark is still the one it read: a restart
 * neither repeats nor loses a mail, and two runs at once (two replicas) send it once. Answers when the next mail held
 * back may go, or null when nothing waits.
 */
export async function notifyAdminsOfRegistrations(
  deps: NoticeContext,
  now = new Date(),
): Promise<Date | null> {
  let heldUntil: Date | null = null
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
    const nextAllowed = admin.last_sent_at
      ? new Date(admin.last_sent_at.getTime() + NOTICE_INTERVAL_MS)
      : null
    let waiting = deps.db
      .selectFrom('accounts')
      .select(['name', 'email', 'created_at'])
      .where('status', '=', 'pending')
    if (admin.role !== 'admin') waiting = waiting.where('team_id', '=', admin.team_id)
    if (admin.covered_until) {
      // PostgreSQL keeps microseconds and the mark has milliseconds: start after its millisecond.
      waiting = waiting.where('created_at', '>=', new Date(admin.covered_until.getTime() + 1))
    }
    if (nextAllowed && nextAllowed > now) {
      // Mailed within the interval: say when what waits may go, and send nothing now.
      if (await waiting.select('id').limit(1).executeTakeFirst()) {
        if (!heldUntil || nextAllowed < heldUntil) heldUntil = nextAllowed
      }
      continue
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
    const mailed = await deps.db.transaction().execute(async (trx) => {
      // Claimed only if no other run (a second replica, or this process's own notifier beside a
      // timer's) mailed this admin since the read above: the mark must still be the one read.
      // Without the condition, two runs that both read the old mark both queued a mail.
      const claimed = await trx
        .insertInto('registration_notices')
        .values(row)
        .onConflict((conflict) =>
          admin.last_sent_at
            ? conflict
                .column('admin_id')
                .doUpdateSet({ last_sent_at: row.last_sent_at, covered_until: row.covered_until })
                .where('registration_notices.last_sent_at', '=', admin.last_sent_at)
            : conflict.column('admin_id').doNothing(),
        )
        .executeTakeFirst()
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false
      const mail = newRegistrationsMail(admin.email, admin.name, fresh, equipe)
      await deps.outbox.queue(trx, 'new_registrations', mail)
      return true
    })
    if (mailed) deps.outbox.wake()
  }
  return heldUntil
}

/**
 * One run at a time in this process; a failure is logged and the next run tries again. A run
 * that held a mail back sets a timer for when it may go, so it goes then rather than at the next
 * minute's tick; `timers` is for a test (node:test's mock timers).
 */
export function registrationNotifier(
  deps: NoticeContext & Pick<ApiContext, 'now'>,
  timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis,
) {
  let running = Promise.resolve()
  let timer: { at: number; handle: ReturnType<typeof setTimeout> } | null = null
  let stopped = false
  const wakeAt = (at: Date) => {
    if (stopped || (timer && timer.at <= at.getTime())) return
    if (timer) timers.clearTimeout(timer.handle)
    const delay = Math.max(0, at.getTime() - deps.now().getTime())
    const handle = timers.setTimeout(() => {
      timer = null
      void notifier.run()
    }, delay)
    // Not a reason to keep the process up (in Node; mock timers have no unref).
    ;(handle as { unref?: () => void }).unref?.()
    timer = { at: at.getTime(), handle }
  }
  const notifier = {
    run(): Promise<void> {
      running = running.then(async () => {
        try {
          const heldUntil = await notifyAdminsOfRegistrations(deps, deps.now())
          if (heldUntil) wakeAt(heldUntil)
        } catch (error: unknown) {
          deps.log.warn({ err: error }, 'new-registration mails failed; will retry')
        }
      })
      return running
    },
    /** No more timers; resolves when the run under way (if any) is over: before the database closes. */
    stop(): Promise<void> {
      stopped = true
      if (timer) timers.clearTimeout(timer.handle)
      timer = null
      return running
    },
  }
  return notifier
}
