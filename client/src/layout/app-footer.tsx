import { CFooter } from '@coreui/react'
import { messages } from '../messages'

export function AppFooter() {
  return (
    <CFooter className="px-4">
      <span>{messages.footer.text}</span>
      <span className="ms-auto text-body-secondary">
        {messages.footer.version} {__APP_VERSION__}
      </span>
    </CFooter>
  )
}
