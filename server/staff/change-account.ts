import type { StaffChangeBody, StaffItem } from '../../common/api/staff'
import { party, recordAudit } from '../audit/record-audit'
import { endAllSessions } from '../auth/sessions'
import { approvedMail } from '../mail/admin-mails'
import { refuseOwnAccount, requireAnActiveAdmin, targetAccount } from './admin-guard'
import { sendLater, type Acting, type StaffDeps } from './staff-context'
import { findStaffItem } from './staff-list'

/**
 * PATCH /staff/:id: approve, disable, re-enable, or change the role. Disabling ends the
 * account's sessions; approving mails the person. Each change is one audit event, written in
 * the same transaction.
 */
export async function changeAccount(
  deps: StaffDeps,
  { actor, origin }: Acting,
  id: string,
  change: StaffChangeBody,
): Promise<StaffItem> {
  refuseOwnAccount(actor, id)
  const { before } = await deps.db.transaction().execute(async (trx) => {
    const before = await targetAccount(trx, id)
    const status = change.status ?? before.status
    const role = change.role ?? before.role
    await trx
      .updateTable('accounts')
      .set({ status, role, updated_at: new Date() })
      .where('id', '=', before.id)
      .execute()
    if (status === 'disabled' && before.status !== 'disabled') await endAllSessions(trx, before.id)
    await requireAnActiveAdmin(trx)

    const audit = { actor: party(actor), account: party(before), origin }
    if (status !== before.status) {
      const type =
        status === 'disabled' ? 'disabled' : before.status === 'pending' ? 'approved' : 'reenabled'
      await recordAudit(trx, { ...audit, type, details: { from: before.status, to: status } })
    }
    if (role !== before.role) {
      await recordAudit(trx, {
        ...audit,
        type: 'role_changed',
        details: { from: before.role, to: role },
      })
    }
    return { before }
  })
  if (before.status === 'pending' && change.status === 'active') {
    sendLater(
      deps,
      approvedMail(before.email, before.name, `${deps.publicUrl}/#/login`),
      'approved',
    )
  }
  return (await findStaffItem(deps.db, before.id))!
}
