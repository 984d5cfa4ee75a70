import { CBadge } from '@coreui/react'
import { useState } from 'react'
import type { StaffStatus } from '../../../../common/api/staff'
import type { StaffMember } from '../../api/staff-list-api'
import { formatDate } from '../../ui/format-date'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'

const COLOUR: Record<StaffStatus | 'locked', string> = {
  pending: 'warning',
  invited: 'info',
  active: 'success',
  disabled: 'secondary',
  locked: 'danger',
}

/**
 * Subtle badges: the emphasis text on the subtle background keeps AA contrast in both colour
 * modes (a solid warning badge with white text does not).
 */
export function StatusBadge({ status }: { status: StaffStatus | 'locked' }) {
  const colour = COLOUR[status]
  return (
    <CBadge
      className={`bg-${colour}-subtle text-${colour}-emphasis border border-${colour}-subtle`}
      // On one line ("Aguardando aprovação" in two reads as two badges): Equipe's table gives
      // the status column the room for it (staff-list-views.tsx).
      style={{ whiteSpace: 'nowrap', textAlign: 'start' }}
    >
      {status === 'locked' ? adminMessages.locked : adminMessages.statuses[status]}
    </CBadge>
  )
}

/** An account's badges: its status (an invitation with when its link expires) and its lock. */
export function StaffBadges({ account }: { account: StaffMember }) {
  const expires = account.status === 'invited' ? account.invitationExpiresAt : null
  // When the page drew the badge: "expirou" for a link that had stopped working by then.
  const [now] = useState(Date.now)
  return (
    <span className="d-flex flex-wrap align-items-center gap-2">
      <StatusBadge status={account.status} />
      {expires && (
        <span className="small text-body-secondary">
          {staffMessages.invitationExpires(formatDate(expires), Date.parse(expires) < now)}
        </span>
      )}
      {account.locked && <StatusBadge status="locked" />}
    </span>
  )
}
