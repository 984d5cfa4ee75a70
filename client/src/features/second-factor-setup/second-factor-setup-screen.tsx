import { CButton } from '@coreui/react'
import { useEffect, useRef, useState } from 'react'
import { setupMessages as text } from './second-factor-setup-messages'
import { useCurrentUser } from '../../session/current-user'
import { signOut } from '../../session/sign-out'
import { PasskeysCard } from '../../second-factor/passkeys-card'
import { TotpCard } from '../../second-factor/totp-card'

/**
 * #/segundo-fator: what someone MFA_REQUIRED covers sees until they have a second factor (the
 * layout's SecondFactorGate sends them here): why, Minha conta's authenticator-app and passkey
 * cards, and "Sair". Once a factor is on, the user is asked for again, and the gate moves on.
 */
export default function SecondFactorSetupScreen() {
  const { user, refresh } = useCurrentUser()
  const [leaving, setLeaving] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  // The screen replaces the one the person asked for: say so to a screen reader at once.
  useEffect(() => heading.current?.focus(), [])
  if (!user) return null

  return (
    <>
      <h1 ref={heading} tabIndex={-1} className="h2 mb-3">
        {text.title}
      </h1>
      <div className="painel-narrow">
        <p>{text.why}</p>
        {user.role === 'admin' && <p>{text.whyAdmins}</p>}
        <p className="mb-0">{text.how}</p>
      </div>
      <TotpCard email={user.email} onTurnedOn={refresh} />
      <PasskeysCard onAdded={refresh} />
      <p className="painel-narrow mt-4 d-flex flex-wrap align-items-center gap-2">
        {text.signOutHint}
        <CButton
          color="secondary"
          variant="outline"
          disabled={leaving}
          onClick={() => {
            setLeaving(true)
            void signOut()
          }}
        >
          {text.signOut}
        </CButton>
      </p>
    </>
  )
}
