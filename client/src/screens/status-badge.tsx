import { CBadge } from '@coreui/react'
import type { AccountStatus } from '../../../common/api/account'
import { adminMessages } from '../messages-admin'

const COLOUR: Record<AccountStatus | 'locked', string> = {
  pending: 'warning',
  active: 'success',
  disabled: 'secondary',
  locked: 'danger',
}

/**
 * Subtle badges: the emphasis text on the subtle background keeps AA contrast in both colour
 * modes (a solid warning badge with white text does not).
 */
export function StatusBadge({ status }: { status: AccountStatus | 'locked' }) {
  const colour = COLOUR[status]
  return (
    <CBadge
      className={`bg-${colour}-subtle text-${colour}-emphasis border border-${colour}-subtle`}
      // A narrow column wraps "Aguardando aprovação" instead of letting it spill over the next.
      style={{ whiteSpace: 'normal', textAlign: 'start' }}
    >
      {status === 'locked' ? adminMessages.locked : adminMessages.statuses[status]}
    </CBadge>
  )
}
