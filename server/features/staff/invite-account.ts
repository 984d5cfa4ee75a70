import { builtInRoleId, roleColumns } from '../../db/role-columns'
import { checkRoleAndTeam } from './role-and-team-change'
import { canonicalEmail } from '../../../common/account-rules'
import { nameProblem, normalizeName } from '../../../common/name-rules'
import type { InvitationBody, StaffItem } from '../../../common/api/staff'
import { party, recordAudit } from '../../audit-log/record-audit'
import { invalidInput } from '../../accounts/account-input'
import { nameColumns } from '../../db/name-columns'
import { voidPasswordResets } from '../../accounts/password-resets'
import { hashPassword } from '../../accounts/passwords'
import { newToken, tokenHash } from '../../accounts/tokens'
import { LINK_TOKEN_MARK } from '../../mail/outbox'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import { apiError } from '../../http/errors'
import { invitedByProviderMail, invitedMail } from '../../mail/admin-mails'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'
import { findStaffItem } from './staff-list'

export const INVITATION_DAYS = 7

/**
 * POST /staff/invitations: an account for someone who has not registered, `invited` until they
 * set a password. Its password is random and never told to anyone; the person sets their own
 * through a mailed link that works for 7 days (a password-reset token with a longer life, so the
 * recovery page serves it). resend-invitation.ts mails a new link the same way.
 */
export async function inviteAccount(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  body: InvitationBody,
): Promise<StaffItem> {
  const email = canonicalEmail(body.email)
  if (email === null) throw apiError(400, 'invalid_email', 'invalid_input')
  // The same rules as registration's (common/name-rules.ts).
  const problem = nameProblem(body.name)
  if (problem) throw invalidInput(problem)
  const name = normalizeName(body.name)
  // The role (Equipe unless named) and the team, as PATCH /staff/:id checks them; a
  // team-scoped inviter's people join the inviter's team.
  const placed = await checkRoleAndTeam(deps.db, access, {
    roleId: body.roleId ?? builtInRoleId(body.role ?? 'staff'),
    teamId: body.teamId === undefined && access.scope === 'team' ? access.teamId : body.teamId,
  })
  const roleId = placed.roleId!
  const teamId = placed.teamId ?? null
  const unusable = await hashPassword(newToken())
  const account = await deps.db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('accounts')
      .values({
        id: crypto.randomUUID(),
        ...nameColumns(name),
        email,
        password_hash: unusable,
        ...roleColumns(roleId),
        team_id: teamId,
        status: 'active',
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!account) throw apiError(409, 'email_taken')
    await recordAudit(trx, {
      type: 'invited',
      actor: party(actor),
      account: party(account),
      origin,
      details: await invitedDetails(trx, roleId, teamId),
    })
    await queueInvitation(trx, deps, account, actor)
    return account
  })
  deps.outbox.wake()
  return (await findStaffItem(deps.db, account.id, access))!
}

/** The role and team an invitation gives, as the audit log says them. */
async function invitedDetails(db: Db, roleId: string, teamId: string | null) {
  const role = await db
    .selectFrom('roles')
    .select('name')
    .where('id', '=', roleId)
    .executeTakeFirstOrThrow()
  const team = teamId
    ? await db.selectFrom('teams').select('name').where('id', '=', teamId).executeTakeFirst()
    : undefined
  return {
    role: roleColumns(roleId).role,
    role_name: role.name,
    ...(team && { team: team.name }),
  }
}

/**
 * A new invitation link for the account, in the caller's transaction: the account's other links
 * stop working, the invitation's expiry moves to the new link's, and the mail is queued.
 */
export async function queueInvitation(
  trx: Db,
  deps: ApiContext,
  account: Account,
  invitedBy: Account,
): Promise<void> {
  const expires = new Date(Date.now() + INVITATION_DAYS * 86_400_000)
  await voidPasswordResets(trx, account.id)
  if (!deps.config.passwordSignIn) {
    // PASSWORD_SIGN_IN=off (docs/single-sign-on.md): no link to set a password nobody may sign
    // in with. The person signs in at a provider; their first sign-in there, by a verified
    // e-mail, links this account and ends the invitation
    // (features/sign-in-with-provider/account-for-identity.ts).
    await trx
      .updateTable('accounts')
      .set({ invitation_expires_at: expires })
      .where('id', '=', account.id)
      .execute()
    const mail = invitedByProviderMail(
      account.email,
      account.name,
      invitedBy.name,
      `${deps.config.publicUrl}/#/login`,
      deps.config.authProviders.map((provider) => provider.buttonText),
    )
    await deps.outbox.queue(trx, 'invitation', mail)
    return
  }
  const token = newToken()
  await trx
    .insertInto('password_resets')
    .values({
      token_hash: tokenHash(token),
      account_id: account.id,
      expires_at: expires,
      used_at: null,
    })
    .execute()
  await trx
    .updateTable('accounts')
    .set({ invitation_expires_at: expires })
    .where('id', '=', account.id)
    .execute()
  const link = `${deps.config.publicUrl}/#/recuperar-senha?token=${LINK_TOKEN_MARK}&convite=1`
  const mail = invitedMail(account.email, account.name, invitedBy.name, link, INVITATION_DAYS)
  await deps.outbox.queue(trx, 'invitation', mail, { tokenHash: tokenHash(token) })
}
