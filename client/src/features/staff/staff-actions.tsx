import { CButton, CDropdown, CDropdownMenu, CDropdownToggle } from '@coreui/react'
import { useState, type ReactNode } from 'react'
import type { StaffItem } from '../../../../common/api/staff'
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

export type StaffActionKind = keyof typeof staffMessages.actions

/** What an admin may do to an account, given its state: the first ones are shown as buttons. */
export function actionsFor(account: StaffItem): {
  primary: StaffActionKind[]
  more: StaffActionKind[]
} {
  const more: StaffActionKind[] = []
  if (account.status === 'pending') return { primary: ['approve', 'refuse'], more }
  if (account.locked) more.push('unlock')
  more.push(account.role === 'admin' ? 'makeStaff' : 'makeAdmin')
  if (account.status === 'active') more.push('signOut', 'reset')
  if (account.mfa) more.push('mfaOff')
  // Someone invited has no password yet: nothing may promise them one; a new link is what helps.
  if (account.status === 'invited')
    return { primary: ['resendInvitation', 'disableInvitation'], more }
  if (account.status === 'disabled' && account.invitationExpiresAt !== null) {
    return { primary: ['enableInvitation'], more }
  }
  return { primary: [account.status === 'active' ? 'disable' : 'enable'], more }
}

const DANGER: ReadonlySet<StaffActionKind> = new Set([
  'refuse',
  'disable',
  'disableInvitation',
  'signOut',
  'mfaOff',
])

function perform(kind: StaffActionKind, account: StaffItem, reason: string): Promise<unknown> {
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
    account: StaffItem
  }>()
  const [reason, setReason] = useState('')

  const ask = (kind: StaffActionKind, account: StaffItem) => {
    askFor({ kind, account })
    setReason('')
  }

  const act = async ({ kind, account }: { kind: StaffActionKind; account: StaffItem }) => {
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
  account: StaffItem
  ask: (kind: StaffActionKind, account: StaffItem) => void
  compact?: boolean
}) {
  const { primary, more } = actionsFor(account)
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
