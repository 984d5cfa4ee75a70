import { CButton } from '@coreui/react'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { errorMessage } from '../../session/api-client'
import { useLoad } from '../../api/use-load'
import { paths } from '../../routing/paths'
import { useDocumentTitle } from '../../routing/use-document-title'
import { Notice } from '../../ui/notice'
import { PageSpinner } from '../../ui/page-spinner'
import { PublicCard } from '../../ui/public-card'
import { wholeWords } from '../../ui/whole-words'
import { readLinkInvitation, startLinkInvitation } from './provider-link-api'
import { providerLinkMessages as words } from './provider-link-messages'

/**
 * `/vincular?token=…`: says whose account and which provider the admin's link is for, and one
 * button goes to the provider with the link bound to this browser's sign-in (the server seals it
 * into the pending sign-in: server/features/sign-in-with-provider/). Back from the provider, the
 * login page exchanges the sign-in as after any provider's, and the person lands on Início.
 * Reading the link on opening uses nothing up, so a mail program that opens links to check them
 * does no harm; only the button goes on.
 */
export default function ProviderLinkPage() {
  const [params] = useSearchParams()
  const token = params.get('token')
  useDocumentTitle(words.title)
  const invitation = useLoad(
    (signal) => readLinkInvitation({ token: token ?? '' }, signal),
    token === null || token === '' ? null : token,
  )
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const start = async () => {
    if (!token) return
    setBusy(true)
    setError(null)
    try {
      const { url } = await startLinkInvitation({ token })
      window.location.assign(url)
    } catch (failure) {
      setError(errorMessage(failure))
      setBusy(false)
    }
  }

  const load = invitation.load
  return (
    <PublicCard title={words.title}>
      {!token ? (
        <Notice text={words.missing} />
      ) : load.state === 'loading' ? (
        <PageSpinner />
      ) : load.state === 'failed' ? (
        <Notice text={load.message} />
      ) : (
        <>
          <p>{wholeWords(words.intro(load.data.label, load.data.name, load.data.email))}</p>
          <p className="text-body-secondary">{wholeWords(words.notYou)}</p>
          <Notice text={error} />
          <CButton color="primary" className="w-100" disabled={busy} onClick={() => void start()}>
            {words.button(load.data.label)}
          </CButton>
        </>
      )}
      <p className="mt-3 mb-0">
        <Link to={paths.login}>{words.goToLogin}</Link>
      </p>
    </PublicCard>
  )
}
