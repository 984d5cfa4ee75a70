import { CButton, CDropdown, CDropdownMenu, CDropdownToggle } from '@coreui/react'
import { useState, type ReactNode } from 'react'
import type { StaffMember } from '../../api/staff-list-api'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { announceStaffChange } from '../../api/staff-changed-event'
import {
  changeStaff,
  endStaffSessions,
  refuseRegistration,
  removeStaffMfa,
  resendStaffInvitation,
  sendStaffResetLink,
  unlockStaff,
} from './staff-api'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { RefusalReasonField } from './refusal-reason-field'
import { useAccess } from '../../session/use-access'
import { actionsFor, mayActOn, saysOutranked, type StaffActionKind } from './staff-action-rules'

export type { StaffActionKind }

const DANGER: ReadonlySet<StaffActionKind> = new Set([
  'refuse',
  'disable',
  'disableInvitation',
  'signOut',
  'mfaOff',
])

function perform(kind: StaffActionKind, account: StaffMember, reason: string): Promise<unknown> {
  switch (kind) {
    case 'approve':
    case 'enable':
    case 'enableInvitation':
      return changeStaff(account.id, { status: 'active' })
    case 'disable':
    case 'disableInvitation':
      return changeStaff(account.id, { status: 'disabled' })
    case 'makeAdmin':
      return changeStaff(account.id, { role: 'admin' })
    case 'makeStaff':
      return changeStaff(account.id, { role: 'staff' })
    case 'refuse':
      return refuseRegistration(account.id, reason.trim())
    case 'unlock':
      return unlockStaff(account.id)
    case 'signOut':
      return endStaffSessions(account.id)
    case 'reset':
      return sendStaffResetLink(account.id)
    case 'mfaOff':
      return removeStaffMfa(account.id)
    case 'resendInvitation':
      return resendStaffInvitation(account.id)
  }
}

/**
 * The actions on staff accounts, each behind a confirmation dialog that says what will happen.
 * `ask` opens the dialog; on success `onDone` gets what to tell the admin, and the sidebar's
 * pending count is told to refresh. Refusals (own account, last admin) show in the dialog.
 */
export function useStaffActions(onDone: (notice: string, kind: StaffActionKind) => void) {
  const {
    asking,
    busy,
    error,
    ask: askFor,
    confirm,
    cancel,
  } = useConfirmedAction<{
    kind: StaffActionKind
    account: StaffMember
  }>()
  const [reason, setReason] = useState('')

  const ask = (kind: StaffActionKind, account: StaffMember) => {
    askFor({ kind, account })
    setReason('')
  }

  const act = async ({ kind, account }: { kind: StaffActionKind; account: StaffMember }) => {
    await perform(kind, account, reason)
    announceStaffChange()
    onDone(staffMessages.done[kind](account.name), kind)
  }

  let dialog: ReactNode = null
  if (asking) {
    const { title, body } = staffMessages.confirm[asking.kind](asking.account.name)
    dialog = (
      <ConfirmDialog
        title={title}
        body={body}
        confirmLabel={staffMessages.actions[asking.kind]}
        cancelLabel={adminMessages.cancel}
        danger={DANGER.has(asking.kind)}
        busy={busy}
        error={error}
        onConfirm={() => void confirm(act)}
        onCancel={cancel}
      >
        {asking.kind === 'refuse' && (
          <RefusalReasonField
            label={staffMessages.confirm.reason}
            value={reason}
            onChange={setReason}
          />
        )}
      </ConfirmDialog>
    )
  }
  return { ask, dialog }
}

/**
 * The buttons of one account: its main actions, and a menu with the rest. `compact`: on one
 * line (Equipe's table, whose other columns are laid out around it).
 */
export function StaffActionButtons({
  account,
  ask,
  compact = false,
}: {
  account: StaffMember
  ask: (kind: StaffActionKind, account: StaffMember) => void
  compact?: boolean
}) {
  const { primary, more } = actionsFor(account, useAccess())
  if (primary.length === 0 && more.length === 0) return null
  return (
    <div className={`d-flex ${compact ? 'flex-nowrap' : 'flex-wrap'} gap-2`}>
      {primary.map((kind) => (
        <CButton
          key={kind}
          size="sm"
          color={DANGER.has(kind) ? 'danger' : 'primary'}
          variant={kind === 'approve' ? undefined : 'outline'}
          aria-label={`${staffMessages.actions[kind]} ${account.name}`}
          onClick={() => ask(kind, account)}
        >
          {staffMessages.actions[kind]}
        </CButton>
      ))}
      {more.length > 0 && (
        <CDropdown placement="bottom-end">
          <CDropdownToggle
            size="sm"
            color="secondary"
            variant="outline"
            aria-label={staffMessages.staff.actionsFor(account.name)}
          >
            {staffMessages.staff.columns.actions}
          </CDropdownToggle>
          {/* A disclosure of buttons, not an ARIA menu (see layout/header-menu.tsx). */}
          <CDropdownMenu role={undefined}>
            {more.map((kind) => (
              <li key={kind}>
                <button type="button" className="dropdown-item" onClick={() => ask(kind, account)}>
                  {staffMessages.actions[kind]}
                </button>
              </li>
            ))}
          </CDropdownMenu>
        </CDropdown>
      )}
    </div>
  )
}

/**
 * What Equipe shows where a person's actions go: their buttons; nothing on one's own account;
 * and for someone whose role outranks the viewer's, a line saying why there are none (the server
 * would refuse each with 403 outranked).
 */
export function PersonActions({
  account,
  meId,
  ask,
  compact = false,
}: {
  account: StaffMember
  meId: string | undefined
  ask: (kind: StaffActionKind, account: StaffMember) => void
  compact?: boolean
}) {
  const access = useAccess()
  if (saysOutranked(account, meId, access)) {
    return (
      <p
        className="small text-body-secondary mb-0"
        // The table's actions cell keeps its buttons on one line; this line wraps, narrow.
        style={compact ? { whiteSpace: 'normal', minWidth: '11rem', maxWidth: '14rem' } : undefined}
      >
        {staffMessages.staff.outranked}
      </p>
    )
  }
  if (!mayActOn(account, meId)) return null
  return <StaffActionButtons account={account} ask={ask} compact={compact} />
}
