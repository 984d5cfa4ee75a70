import { CSpinner } from '@coreui/react'
import { messages } from '../words/messages'

/**
 * The centred growing spinner shown while a page or screen chunk loads. As an overlay (during a
 * navigation) it fades in after a moment, so a chunk that is already cached does not flash it.
 */
export function PageSpinner({ overlay = false }: { overlay?: boolean }) {
  return (
    <div className={overlay ? 'painel-spinner painel-spinner-overlay' : 'painel-spinner'}>
      <CSpinner
        variant="grow"
        color="primary"
        aria-label={messages.app.loading}
        visuallyHiddenLabel={messages.app.loading}
      />
    </div>
  )
}
