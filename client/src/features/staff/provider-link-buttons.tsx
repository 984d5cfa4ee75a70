import { CButton } from '@coreui/react'
import { useState } from 'react'
import type { SignInMethods } from '../../../../common/api/staff'
import { errorMessage } from '../../session/api-client'
import { Notice } from '../../ui/notice'
import { sendProviderLinkInvitation } from './staff-api'
import { staffMessages } from './staff-messages'

const text = staffMessages.account

/**
 * "Formas de entrar"'s buttons: for each configured provider the person is not linked to, mail
 * them the link that connects it (issue 28's "or an admin links"). The mail goes to the person's
 * own address, which is what proves them, so there is nothing to choose and nothing to confirm.
 */
export function ProviderLinkButtons({
  accountId,
  email,
  linkable,
  onSent,
}: {
  accountId: string
  email: string
  linkable: SignInMethods['linkable']
  onSent: (said: string) => void
}) {
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const send = async (provider: { name: string; label: string }) => {
    setBusy(provider.name)
    setError(null)
    try {
      await sendProviderLinkInvitation(accountId, provider.name)
      onSent(text.providerLinkSent(provider.label, email))
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="mt-2">
      <Notice text={error} />
      <div className="d-flex flex-wrap gap-2">
        {linkable.map((provider) => (
          <CButton
            key={provider.name}
            color="secondary"
            variant="outline"
            size="sm"
            disabled={busy !== null}
            onClick={() => void send(provider)}
          >
            {text.sendProviderLink(provider.label)}
          </CButton>
        ))}
      </div>
    </div>
  )
}
