import {
  DeletionRefusalBodySchema,
  DeletionRequestBodySchema,
  DeletionRequestListSchema,
} from '../../../common/api/account-deletion'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { AccountIdParamsSchema } from '../../../common/api/staff'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { reachableSql } from '../../roles/team-scope'
import { requireOwnConfirmation } from '../../sign-in-steps/own-confirmation'
import { party, recordAudit } from '../../audit-log/record-audit'
import { answerWithoutBody } from '../../http/answer-without-body'
import { requestOrigin } from '../../http/request-origin'
import { anonymiseAccount } from './anonymise-account'
import { queueDeletionRequestMails } from './deletion-request-mails'
import { refuseDeletionRequest } from './refuse-deletion-request'

/**
 * POST /api/me/deletion-request: the person asks, with their password or a code of their
 * authenticator app (common/api/account-deletion.ts).
 */
export const myDeletionRequestRoutes = guardedRoutes([signedIn], async (app, context) => {
  app.post(
    '/deletion-request',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: "Ask for one's account to be deleted (anonymised by an admin)",
        description:
          'Checks the password, or instead a code of the authenticator app or a recovery code (used up; either counted like a failed sign-in when wrong: 400 wrong_password or wrong_code), and records the request for the admins (GET /api/staff/deletion-requests). Mails the person an acknowledgement with the date by which it will be answered (15 days) and everyone who may decide it (staff.delete reaching the person). A second request while one is open changes nothing. Audited.',
        security: bearer,
        body: DeletionRequestBodySchema,
        response: { 202: NoContentSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const account = request.account!
      const origin = requestOrigin(request)
      await requireOwnConfirmation(context, account, request.body, {
        address: request.ip,
        audit: origin,
      })
      const at = context.now()
      await context.db.transaction().execute(async (trx) => {
        const open = await trx
          .selectFrom('deletion_requests')
          .select('id')
          .where('account_id', '=', account.id)
          .where('decided_at', 'is', null)
          .executeTakeFirst()
        if (open) return
        await trx
          .insertInto('deletion_requests')
          .values({
            id: crypto.randomUUID(),
            account_id: account.id,
            requested_at: at,
            decided_at: null,
            decided_by: null,
            outcome: null,
            reason: null,
          })
          .execute()
        await recordAudit(trx, {
          type: 'deletion_requested',
          actor: party(account),
          account: party(account),
          origin,
          at,
        })
        await queueDeletionRequestMails(trx, context, account, at)
      })
      context.outbox.wake()
      return answerWithoutBody(reply, 202)
    },
  )
})

/**
 * The side of those who decide (permission staff.delete), under /api/staff: the requests of the
 * people they reach, and anonymising one of them (never someone whose role outranks theirs).
 */
export const staffDeletionRoutes = guardedRoutes([signedIn], async (app, context) => {
  const { db } = context

  app.get(
    '/deletion-requests',
    {
      schema: {
        'x-permission': 'staff.delete',
        summary: 'The open requests for deletion, oldest first',
        description:
          'Permission staff.delete. Each open request of the people the caller reaches, with the account that asked and when.',
        security: bearer,
        response: { 200: DeletionRequestListSchema, ...errorAnswers(401, 403) },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('deletion_requests')
        .innerJoin('accounts', 'accounts.id', 'deletion_requests.account_id')
        .select([
          'deletion_requests.id',
          'deletion_requests.requested_at',
          'accounts.id as account_id',
          'accounts.name',
          'accounts.email',
        ])
        .where('deletion_requests.decided_at', 'is', null)
        .where(reachableSql(request.access!))
        .orderBy('deletion_requests.requested_at')
        .execute()
      return {
        requests: rows.map((row) => ({
          id: row.id,
          account: { id: row.account_id, name: row.name, email: row.email },
          requestedAt: row.requested_at.toISOString(),
        })),
      }
    },
  )

  app.post(
    '/:id/anonymise',
    {
      schema: {
        'x-permission': 'staff.delete',
        summary: 'Anonymise an account: its personal data removed everywhere',
        description:
          'Permission staff.delete, for the people the caller reaches (404 otherwise) whose role does not outrank theirs (403 outranked). Removes the account and its personal data everywhere (name, e-mail, provider links, addresses and browsers in sessions and audit events, mails to it); the audit log keeps its events under a stable pseudonym. Its sessions end at once. 400 own_account; 409 last_admin.',
        security: bearer,
        params: AccountIdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await anonymiseAccount(
        context,
        request.account!,
        request.params.id,
        requestOrigin(request),
        request.access,
      )
      return answerWithoutBody(reply, 204)
    },
  )

  app.post(
    '/:id/deletion-request/refuse',
    {
      schema: {
        'x-permission': 'staff.delete',
        summary: "Refuse an account's open request for deletion, with a reason",
        description:
          'Permission staff.delete, for the people the caller reaches. Closes the open request as refused and mails the person the reason, quoted; the account stays as it was. Audited. 400 own_account or a blank reason; 404 when the account has no open request (decided meanwhile).',
        security: bearer,
        params: AccountIdParamsSchema,
        body: DeletionRefusalBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await refuseDeletionRequest(
        context,
        request.account!,
        request.params.id,
        request.body.reason,
        requestOrigin(request),
        request.access,
      )
      return answerWithoutBody(reply, 204)
    },
  )
})
