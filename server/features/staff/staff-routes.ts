import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import {
  AccountIdParamsSchema,
  InvitationBodySchema,
  RefuseBodySchema,
  StaffAccountSchema,
  StaffBulkAnswerSchema,
  StaffBulkBodySchema,
  StaffChangeBodySchema,
  StaffItemAnswerSchema,
  StaffListSchema,
  StaffQuerySchema,
} from '../../../common/api/staff'
import { findReachableAccount } from '../../accounts/account-administration'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { missingPermission } from '../../access/operation-access'
import { openSessions } from './account-sessions'
import { bulkChange } from './bulk-change'
import { signInMethods } from './sign-in-methods'
import { changeStaffAccount } from './change-staff-account'
import { endAccountSessions } from './end-account-sessions'
import { removeAccountSecondFactors } from './remove-second-factors'
import { inviteAccount } from './invite-account'
import { refuseRegistration } from './refuse-registration'
import { resendInvitation } from './resend-invitation'
import { sendResetLink } from './send-reset-link'
import type { ApiContext } from '../../api/api-context'
import type { Permission } from '../../../common/permissions'
import {
  actionPermissions,
  STAFF_BULK_ACTS,
  STAFF_CHANGE_ACTS,
  STAFF_PERMISSIONS,
} from '../../../common/staff-permissions'
import { acting, type Acting } from '../../access/acting'
import { countOpenDeletionRequests } from '../../accounts/open-deletion-requests'
import { allows } from '../../roles/access'
import { findStaffItem, listStaff } from './staff-list'
import { unlockStaffAccount } from './unlock-account'
import { answerWithoutBody } from '../../http/answer-without-body'

/**
 * Staff administration, under /api/staff (common/api/staff.ts): each route maps one use case of
 * this folder to HTTP, and declares the permission it needs (x-permission). A caller whose role
 * is scoped to a team reaches the people of that team only: anyone else is "not found".
 */
export default guardedRoutes([signedIn], async (app, deps) => {
  app.get(
    '/',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.view,
        summary: 'Staff accounts: searched, filtered, sorted and paged',
        description:
          'Staff accounts, searched by name or e-mail (accents and case ignored), filtered by status and role, sorted and paged. With staff.delete, also the count of open requests for deletion (openDeletionRequests).',
        security: bearer,
        querystring: StaffQuerySchema,
        response: { 200: StaffListSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => {
      const access = request.access!
      const list = await listStaff(deps.db, request.query, access)
      if (!allows(access, 'staff.delete')) return list
      return { ...list, openDeletionRequests: await countOpenDeletionRequests(deps.db, access) }
    },
  )

  app.post(
    '/invitations',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.invite,
        summary: 'Invite someone: an invited account whose owner sets a password by mail',
        description:
          'Creates an invited account and mails its owner a link to set a password (valid for 7 days). 409 when the e-mail already has an account.',
        security: bearer,
        body: InvitationBodySchema,
        response: { 201: StaffItemAnswerSchema, ...errorAnswers(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const user = await inviteAccount(deps, acting(request), request.body)
      return reply.code(201).send({ user })
    },
  )

  app.post(
    '/bulk',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.view,
        'x-action-permissions': actionPermissions(Object.values(STAFF_BULK_ACTS)),
        summary: 'Approve, refuse or disable several people at once, with a result for each',
        description:
          "Needs staff.approve to approve or refuse, staff.disable to disable (403 otherwise). One action for up to 100 accounts (Equipe's selection); an account out of the caller's team scope fails as not found, one whose role holds a permission the caller's lacks as outranked. Each person is changed in a transaction of their own, by the rules of the single-person calls (not one's own account, never the last active admin), and audited on their own. The answer has one result per distinct id: done, already_done (another admin did it meanwhile: nothing changed) or failed with the reason. 400 for a reason given to anything but refuse.",
        security: bearer,
        body: StaffBulkBodySchema,
        response: { 200: StaffBulkAnswerSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => {
      const needed = STAFF_PERMISSIONS[STAFF_BULK_ACTS[request.body.action]]
      if (!allows(request.access!, needed)) throw missingPermission()
      return bulkChange(deps, acting(request), request.body)
    },
  )

  app.get(
    '/:id',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.view,
        summary: 'One account and its open sessions',
        description:
          'One account, with its open sessions and its sign-in state (locked, second factors).',
        security: bearer,
        params: AccountIdParamsSchema,
        response: { 200: StaffAccountSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await findReachableAccount(deps.db, request.params.id, request.access)
      const user = (await findStaffItem(deps.db, account.id, request.access!))!
      return {
        user,
        sessions: await openSessions(deps.db, account.id),
        signIn: await signInMethods(deps.db, account, deps.config.authProviders),
      }
    },
  )

  app.patch(
    '/:id',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.view,
        'x-action-permissions': actionPermissions(STAFF_CHANGE_ACTS),
        summary: 'Approve, disable, re-enable, change the role, or correct the name',
        description:
          "Approves a pending registration (staff.approve), disables or re-enables an account (staff.disable), changes its role or team or corrects its name (staff.roles); 403 for a part the caller's role does not allow, for a role with more permissions or reach than the caller's own (role_not_grantable) or another team than a team-scoped caller's own (team_out_of_reach); 400 unknown_role / unknown_team. Not on one's own status or role (400 own_account); 409 last_admin when no active admin would be left; 404 out of the caller's team scope; 403 outranked for a person whose role holds a permission the caller's lacks (roles/rank.ts).",
        security: bearer,
        params: AccountIdParamsSchema,
        body: StaffChangeBodySchema,
        response: { 200: StaffItemAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({
      user: await changeStaffAccount(deps, acting(request), request.params.id, request.body),
    }),
  )

  app.delete(
    '/:id',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.refuse,
        summary: 'Refuse and remove a pending registration (the person is told by mail)',
        description:
          'Refuses a pending registration: the account is removed and the person told by mail. 409 not_pending for any other account.',
        security: bearer,
        params: AccountIdParamsSchema,
        body: RefuseBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await refuseRegistration(deps, acting(request), request.params.id, request.body?.reason)
      return answerWithoutBody(reply, 204)
    },
  )

  const action = (
    path: string,
    permission: Permission,
    { summary, description }: { summary: string; description: string },
    status: 202 | 204,
    run: (deps: ApiContext, acting: Acting, id: string) => Promise<void>,
    conflicts = false,
  ) =>
    app.post(
      `/:id/${path}`,
      {
        schema: {
          'x-permission': permission,
          summary,
          description,
          security: bearer,
          params: AccountIdParamsSchema,
          response: {
            [status]: NoContentSchema,
            ...errorAnswers(400, 401, 403, 404, ...(conflicts ? [409] : [])),
          },
        },
      },
      async (request, reply) => {
        await run(deps, acting(request), request.params.id)
        return answerWithoutBody(reply, status)
      },
    )
  action(
    'unlock',
    STAFF_PERMISSIONS.unlock,
    {
      summary: 'Unlock an account locked by failed sign-ins',
      description:
        'Clears the failed sign-ins that locked an account, so its owner can sign in at once.',
    },
    204,
    (d, a, id) => unlockStaffAccount(d, a, id),
  )
  action(
    'sign-out',
    STAFF_PERMISSIONS.endSessions,
    {
      summary: 'End every session of an account',
      description: 'Ends every session of an account.',
    },
    204,
    endAccountSessions,
  )
  action(
    'password-reset',
    STAFF_PERMISSIONS.sendResetLink,
    {
      summary: 'Mail the person a reset link',
      description:
        "Mails the account's owner a reset link, as if they had asked for one. 409 for an account that cannot sign in (pending, disabled or invited).",
    },
    202,
    sendResetLink,
    true,
  )
  action(
    'invitation',
    STAFF_PERMISSIONS.invite,
    {
      summary: 'Mail an invited person a new invitation link (the older links stop working)',
      description:
        'Mails an invited person a new invitation link; the older links stop working. 409 when the account is not an open invitation.',
    },
    202,
    resendInvitation,
    true,
  )

  app.delete(
    '/:id/mfa',
    {
      schema: {
        'x-permission': STAFF_PERMISSIONS.removeSecondFactors,
        summary: 'Remove the second factors of an account (for a lost phone)',
        description:
          'The authenticator app, its recovery codes and every passkey go; the event is audited.',
        security: bearer,
        params: AccountIdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await removeAccountSecondFactors(deps, acting(request), request.params.id)
      return answerWithoutBody(reply, 204)
    },
  )
})
