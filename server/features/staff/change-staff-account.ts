import type { StaffChangeBody, StaffItem } from '../../../common/api/staff'
import { party, recordAudit } from '../../audit-log/record-audit'
import { writeAccountChange, type AccountChange } from '../../accounts/account-administration'
import { approvedMail } from '../../mail/admin-mails'
import { acceptedName } from '../../accounts/account-input'
import type { ApiContext } from '../../api/api-context'
import type { Account } from '../../db/schema'
import type { Acting } from './staff-context'
import { findStaffItem } from './staff-list'

/**
 * PATCH /staff/:id, the staff use case: approve, disable, re-enable, change the role or correct
 * the name, written by accounts/account-administration.ts's writeAccountChange (own account 400,
 * last admin 409, the id's spelling; disabling ends the account's sessions). Approving mails the
 * person. Each change is one audit event, written in the change's transaction.
 */
export async function changeStaffAccount(
  deps: ApiContext,
  acting: Acting,
  id: string,
  change: StaffChangeBody,
): Promise<StaffItem> {
  // The rules of registration (common/name-rules.ts); refused before anything changes.
  const named = change.name === undefined ? change : { ...change, name: acceptedName(change.name) }
  const { before } = await applyStaffChange(deps, acting, id, named)
  return (await findStaffItem(deps.db, before.id))!
}

/**
 * The change itself, with its audit events and mail; `change` may be decided from the account
 * as it is once locked (the bulk actions: null when it is so already, and nothing is written).
 * Whether anything changed.
 */
export async function applyStaffChange(
  deps: ApiContext,
  { actor, origin }: Acting,
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
      const audit = { actor: party(actor), account: party(before), origin }
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
      if (after.role !== before.role) {
        await recordAudit(trx, {
          ...audit,
          type: 'role_changed',
          details: { from: before.role, to: after.role },
        })
      }
    },
  )
  if (changed) deps.outbox.wake()
  return { before, changed }
}
