import { DashboardSchema } from '../../../common/api/dashboard'
import { errorAnswers } from '../../../common/api/errors'
import { findAuditEvents } from '../../audit-log/audit-query'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { reachableSql } from '../../roles/team-scope'
import { myActivity } from '../../audit-log/my-activity'
import { accountsByStatus, signInDays } from './sign-in-days'

/** GET /api/dashboard (common/api/dashboard.ts): an admin's figures. */
export default guardedRoutes([signedIn], async (app, { db }) => {
  app.get(
    '/',
    {
      schema: {
        'x-permission': 'dashboard.team',
        summary: 'Accounts by status, what waits, sign-ins for 14 days, recent events (admins)',
        description:
          "Permission dashboard.team; scope team: the figures of the caller's team only. The dashboard's figures: accounts by status, registrations waiting for approval, sign-ins per day for 14 days, and the latest events.",
        security: bearer,
        response: { 200: DashboardSchema, ...errorAnswers(401, 403) },
      },
    },
    async (request) => {
      const access = request.access!
      // An invitation not yet taken up is counted apart from the active accounts (db/schema.ts),
      // from the tallies the database keeps (db/list-migrations.ts), not by counting accounts.
      const byStatus = await accountsByStatus(db, access)
      const count = (status: string) => byStatus.get(status) ?? 0
      const pending = await db
        .selectFrom('accounts')
        .select(['id', 'name', 'email', 'created_at'])
        .where('status', '=', 'pending')
        .where(reachableSql(access))
        .orderBy('created_at')
        .limit(5)
        .execute()
      const mine = await myActivity(db, request.account!.id, request.sessionToken!)
      return {
        accounts: {
          active: count('active'),
          invited: count('invited'),
          pending: count('pending'),
          disabled: count('disabled'),
        },
        pending: pending.map((row) => ({
          id: row.id,
          name: row.name,
          email: row.email,
          createdAt: new Date(row.created_at).toISOString(),
        })),
        signIns: await signInDays(db, access),
        recent: await findAuditEvents(db, {}, 10, access),
        lastSignInAt: mine.lastSignIn?.at ?? null,
      }
    },
  )
})
