import { errorAnswers } from '../../../common/api/errors'
import { NoticePreferencesSchema } from '../../../common/api/notices'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { party, recordAudit } from '../../audit-log/record-audit'
import { requestOrigin } from '../../http/request-origin'
import { composeSecurityNotices } from './security-notice-mail'

/**
 * The person's security notices, under /api/me (common/api/notices.ts): the one notice they may
 * turn off. The notices themselves are queued with the audit events that call for them
 * (security-notices/queue-security-notice.ts) and composed here, by the outbox's sender.
 */
export default guardedRoutes([signedIn], async (app, context) => {
  const { db } = context
  composeSecurityNotices(context)

  app.get(
    '/notices',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: "One's security notice preferences",
        description:
          'Which optional security notices the signed-in person gets by mail. Only the notice of a sign-in from a browser new to the account may be turned off; the others always go.',
        security: bearer,
        response: { 200: NoticePreferencesSchema, ...errorAnswers(401) },
      },
    },
    async (request) => ({ newBrowser: request.account!.notice_new_browser }),
  )

  app.patch(
    '/notices',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Turn the new-browser notice on or off',
        description:
          'Turns on or off the mail sent when a browser new to the account signs in. The other security notices cannot be turned off.',
        security: bearer,
        body: NoticePreferencesSchema,
        response: { 200: NoticePreferencesSchema, ...errorAnswers(400, 401) },
      },
    },
    async (request) => {
      const { newBrowser } = request.body
      const account = request.account!
      await db.transaction().execute(async (trx) => {
        // The row as it is now (locked by the update), not as the session read it: the same
        // value again changes nothing, and the log records changes only.
        const before = await trx
          .updateTable('accounts')
          .set((set) => ({ notice_new_browser: set.ref('notice_new_browser') }))
          .where('id', '=', account.id)
          .returning('notice_new_browser')
          .executeTakeFirst()
        if (!before || Boolean(before.notice_new_browser) === newBrowser) return
        await trx
          .updateTable('accounts')
          .set({ notice_new_browser: newBrowser })
          .where('id', '=', account.id)
          .execute()
        await recordAudit(trx, {
          type: 'notices_changed',
          actor: party(account),
          account: party(account),
          origin: requestOrigin(request),
          details: { new_browser: newBrowser },
        })
      })
      return { newBrowser }
    },
  )
})
