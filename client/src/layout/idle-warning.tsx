import { lazy, Suspense } from 'react'
import { useIdleWarning } from './use-idle-warning'

const IdleWarningDialog = lazy(() => import('./idle-warning-dialog'))

/** The signed-in layout's idle warning: nothing until it is due (use-idle-warning.ts). */
/** `onSignOut` comes from the layout, whose chunk has it already (no extra chunk for it). */
export default function IdleWarning({ onSignOut }: { onSignOut: () => void }) {
  const { endsAt, renew } = useIdleWarning()
  if (endsAt === null) return null
  return (
    <Suspense fallback={null}>
      <IdleWarningDialog key={endsAt} endsAt={endsAt} onRenew={renew} onSignOut={onSignOut} />
    </Suspense>
  )
}
