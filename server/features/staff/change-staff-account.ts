import type { StaffChangeBody, StaffItem } from '../../../common/api/staff'
import { STAFF_PERMISSIONS } from '../../../common/staff-permissions'
import { party, recordAudit } from '../../audit-log/record-audit'
import { writeAccountChange, type AccountChange } from '../../accounts/account-administration'
import { approvedMail } from '../../mail/admin-mails'
import { acceptedName } from '../../accounts/account-input'
import { missingPermission } from '../../access/operation-access'
import type { ApiContext } from '../../api/api-context'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import { allows } from '../../roles/access'
import { mayGrant } from '../../roles/grant-rules'
import { permissionsOfRoles } from '../../roles/role-store'
import { apiError } from '../../http/errors'
import type { Acting } from '../../access/acting'
import { findStaffItem } from './staff-list'
import { checkRoleAndTeam, requireRolesPermission } from './role-and-team-change'

/**
 * PATCH /staff/:id, the staff use case: approve, disable, re-enable, change the role or the team,
 * or correct the name, written by accounts/account-administration.ts's writeAccountChange (own
 * account 400, last admin 409, the id's spelling, out of the caller's reach 404; disabling ends
 * the account's sessions). Each part needs its permission: approving staff.approve, disabling
 * and re-enabling staff.disable, the role, the team and the name staff.roles. Approving mails
 * the person. Each change is one audit event, written in the change's transaction.
 */
export async function changeStaffAccount(
  deps: ApiContext,
  acting: Acting,
  id: string,
  change: StaffChangeBody,
): Promise<StaffItem> {
  const { access } = acting
  const touchesRoles =
    change.role !== undefined ||
    change.roleId !== undefined ||
    change.teamId !== undefined ||
    change.name !== undefined
  if (touchesRoles) requireRolesPermission(access)
  // The rules of registration (common/name-rules.ts); refused before anything changes.
  const name = change.name === undefined ? undefined : acceptedName(change.name)
  const placed = await checkRoleAndTeam(deps.db, access, change)
  const wanted: AccountChange = {
    ...(change.status && { status: change.status }),
    ...(name !== undefined && { name }),
    ...(placed.roleId !== undefined && { roleId: placed.roleId }),
    ...(placed.teamId !== undefined && { teamId: placed.teamId }),
  }
  const { before } = await applyStaffChange(deps, acting, id, (before) => {
    if (wanted.status && wanted.status !== before.status) {
      const act =
        before.status === 'pending'
          ? 'approve'
          : wanted.status === 'disabled'
            ? 'disable'
            : 'enable'
      const needed = STAFF_PERMISSIONS[act]
      if (!allows(access, needed)) throw missingPermission()
    }
    return wanted
  })
  return (await findStaffItem(deps.db, before.id, access))!
}

/** Names of roles and teams by id, for the audit's before and after. */
async function namesOf(db: Db, table: 'roles' | 'teams', ids: (string | null)[]) {
  const wanted = ids.filter((id): id is string => id !== null)
  const rows =
    wanted.length === 0
      ? []
      : await db.selectFrom(table).select(['id', 'name']).where('id', 'in', wanted).execute()
  return (id: string | null) => rows.find((row) => row.id === id)?.name ?? null
}

/**
 * The change itself, with its audit events and mail; `change` may be decided from the account
 * as it is once locked (the bulk actions: null when it is so already, and nothing is written).
 * Whether anything changed.
 */
export async function applyStaffChange(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  id: string,
  change: AccountChange | ((before: Account) => AccountChange | null),
): Promise<{ before: Account; changed: boolean }> {
  const decide = typeof change === 'function' ? change : () => change
  const { before, changed } = await writeAccountChange(
    deps.db,
    actor,
    id,
    decide,
    async (trx, before, after) => {
      if (!after) return // writeAccountChange always passes the row it wrote
      // The app's clock, as every other event's (tests move it).
      const audit = { actor: party(actor), account: party(before), origin, at: deps.now() }
      const status = after.status
      if (status !== before.status) {
        const type =
          status === 'disabled'
            ? 'disabled'
            : before.status === 'pending'
              ? 'approved'
              : 'reenabled'
        await recordAudit(trx, { ...audit, type, details: { from: before.status, to: status } })
        if (type === 'approved') {
          const login = `${deps.config.publicUrl}/#/login`
          await deps.outbox.queue(trx, 'approved', approvedMail(before.email, before.name, login))
        }
      }
      if (after.name !== before.name) {
        await recordAudit(trx, {
          ...audit,
          type: 'name_changed',
          details: { from: before.name, to: after.name },
        })
      }
      if (after.role_id !== before.role_id) {
        // Nobody takes a role from someone whose role they could not have given.
        const held = (await permissionsOfRoles(trx, [before.role_id])).get(before.role_id)!
        const scope = await trx
          .selectFrom('roles')
          .select('scope')
          .where('id', '=', before.role_id)
          .executeTakeFirstOrThrow()
        if (!mayGrant(access, { permissions: held, scope: scope.scope })) {
          throw apiError(403, 'role_not_grantable', 'forbidden')
        }
        const roleName = await namesOf(trx, 'roles', [before.role_id, after.role_id])
        await recordAudit(trx, {
          ...audit,
          type: 'role_changed',
          details: {
            from: before.role,
            to: after.role,
            from_role: roleName(before.role_id),
            to_role: roleName(after.role_id),
          },
        })
      }
      if (after.team_id !== before.team_id) {
        const teamName = await namesOf(trx, 'teams', [before.team_id, after.team_id])
        await recordAudit(trx, {
          ...audit,
          type: 'team_changed',
          details: { from: teamName(before.team_id), to: teamName(after.team_id) },
        })
      }
    },
    access,
  )
  if (changed) deps.outbox.wake()
  return { before, changed }
}
