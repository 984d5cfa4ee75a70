import { CContainer } from '@coreui/react'
import { lazy, Suspense, useRef, useState } from 'react'
import { useLocation } from 'react-router-dom'
import { messages } from '../words/messages'
import { CurrentUserProvider } from '../session/current-user'
import { signOut } from '../session/sign-out'
import { readRecoveryCodesLeft } from '../session/recovery-codes-left'
import { AppFooter } from './app-footer'
import { AppHeader } from './app-header'
import { AppSidebar } from './app-sidebar'
import { SecondFactorGate } from './second-factor-gate'

/**
 * The idle timer is not needed to show the screen (its first warning is minutes away): its code
 * loads after the layout, outside the dashboard's cold-load budget.
 */
const IdleWarning = lazy(() => import('./idle-warning'))
/** Loaded only after a sign-in with a recovery code: nothing of it in other cold loads. */
const RecoveryCodesNotice = lazy(() => import('./recovery-codes-notice'))
/** Needed from the first change of screen on, not for the first screen: after the layout too. */
const HeadingFocus = lazy(() => import('./heading-focus'))

/**
 * The authenticated frame: sidebar, header with breadcrumb, the inner screen (or, while a second
 * factor must be set up first, its setup: second-factor-gate.tsx), footer.
 */
export default function DefaultLayout() {
  const content = useRef<HTMLElement>(null)
  // The path when the layout came up (HeadingFocus may load after a change), as the router
  // reads it: HeadingFocus compares it with the router's later ones.
  const { pathname } = useLocation()
  const [firstPathname] = useState(pathname)
  const [recoveryCodesLeft] = useState(readRecoveryCodesLeft)
  return (
    <CurrentUserProvider>
      {/* A button, not a link: a "#conteudo" href would be taken for a route. */}
      <button
        type="button"
        className="painel-skip-link btn btn-primary"
        onClick={() => content.current?.focus()}
      >
        {messages.app.skipToContent}
      </button>
      <AppSidebar />
      <div className="wrapper d-flex flex-column min-vh-100">
        <AppHeader />
        <main ref={content} tabIndex={-1} className="body flex-grow-1 painel-content">
          <CContainer className="px-4" lg>
            {recoveryCodesLeft !== null && (
              <Suspense fallback={null}>
                <RecoveryCodesNotice left={recoveryCodesLeft} />
              </Suspense>
            )}
            <SecondFactorGate />
          </CContainer>
        </main>
        <AppFooter />
      </div>
      <Suspense fallback={null}>
        <IdleWarning onSignOut={() => void signOut()} />
      </Suspense>
      <Suspense fallback={null}>
        <HeadingFocus main={content} firstPathname={firstPathname} />
      </Suspense>
    </CurrentUserProvider>
  )
}
