import { errorAnswers } from '../../../common/api/errors'
import { MyDataSchema } from '../../../common/api/my-data'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { party, recordAudit } from '../../audit-log/record-audit'
import { requestOrigin } from '../../http/request-origin'
import { collectMyData } from './collect-my-data'

/** Copies per person and hour: enough to retry, not a way to load the database. */
export const EXPORTS_PER_HOUR = 5

/** "Meus dados": GET /api/me/export (common/api/my-data.ts). */
export default guardedRoutes([signedIn], async (app, context) => {
  const { db, now } = context
  // Counted per account (the guard has found it by then), apart from AUTH_RATE_LIMIT's count.
  const exportLimit = app.rateLimit({
    max: EXPORTS_PER_HOUR,
    timeWindow: 3_600_000,
    keyGenerator: (request) => `export:${request.account?.id ?? request.ip}`,
  })

  app.get(
    '/export',
    {
      onRequest: exportLimit,
      schema: {
        'x-permission': 'signed-in',
        summary: 'Download everything the panel holds about oneself (JSON)',
        description:
          'A JSON attachment of the account, sessions and browsers, passkeys (names and dates), second-factor state, linked providers, changes of e-mail, sign-in limits, mails sent, and the audit events by and about the person. No secret is in it. 5 an hour per person; audited.',
        security: bearer,
        response: { 200: MyDataSchema, ...errorAnswers(401, 429) },
      },
    },
    async (request, reply) => {
      const account = request.account!
      const at = now()
      await recordAudit(db, {
        type: 'data_exported',
        actor: party(account),
        account: party(account),
        origin: requestOrigin(request),
        at,
      })
      const data = await collectMyData(db, account, at)
      const day = at.toISOString().slice(0, 10)
      void reply.header(
        'content-disposition',
        `attachment; filename="painel-meus-dados-${day}.json"`,
      )
      return data
    },
  )
})
