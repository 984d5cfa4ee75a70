import { CButton } from '@coreui/react'
import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '../../session/api-client'
import { securityMessages } from '../../second-factor/second-factor-messages'
import { AccountCard } from '../../ui/account-card'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { formatDateTime } from '../../ui/format-date'
import { Notice } from '../../ui/notice'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { listProviderLinks, unlinkProvider, type ProviderLink } from './my-account-api'
import { accountMessages } from './my-account-messages'

const text = accountMessages.providers

/**
 * Minha conta › Provedores de identidade: the organisation's accounts this person signs in with
 * (docs/single-sign-on.md), each unlinked while another way in remains. Shown only to someone
 * who has one: without a link there is nothing to list or do here.
 */
export function ProvidersCard({
  onPasswordSignIn,
}: {
  /** Told, with the list, whether this account signs in with a password of its own. */
  onPasswordSignIn: (yes: boolean) => void
}) {
  const [links, setLinks] = useState<ProviderLink[] | null>(null)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)
  const reload = useCallback(
    (signal?: AbortSignal) => {
      listProviderLinks(signal).then(
        ({ providers, passwordSignIn }) => {
          setLinks(providers)
          onPasswordSignIn(passwordSignIn)
        },
        (error: unknown) => {
          if (!signal?.aborted) setNotice({ text: errorMessage(error), error: true })
        },
      )
    },
    [onPasswordSignIn],
  )
  useEffect(() => {
    const controller = new AbortController()
    reload(controller.signal)
    return () => controller.abort()
  }, [reload])
  const { asking, busy, error, ask, confirm, cancel } = useConfirmedAction<ProviderLink>()

  if ((links === null || links.length === 0) && notice === null) return null

  const unlink = async (link: ProviderLink) => {
    setNotice(null)
    await unlinkProvider(link.id)
    setNotice({ text: text.unlinked, error: false })
    reload()
  }

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {notice && <Notice color={notice.error ? 'danger' : 'success'} text={notice.text} />}
      {links && links.length > 0 && (
        <ul className="list-unstyled mb-0" aria-label={text.title}>
          {links.map((link) => (
            <li
              key={link.id}
              className="d-flex flex-wrap align-items-start justify-content-between gap-2 border-bottom py-2"
            >
              <div>
                <div className="fw-semibold">{link.label}</div>
                <div className="small text-body-secondary">
                  <div>
                    {text.linkedAt}: {formatDateTime(link.linkedAt)}
                  </div>
                  <div>
                    {text.lastUsed}:{' '}
                    {link.lastUsedAt === null ? text.never : formatDateTime(link.lastUsedAt)}
                  </div>
                  {!link.unlinkable && <div>{text.lastWay}</div>}
                </div>
              </div>
              {link.unlinkable && (
                <CButton
                  color="danger"
                  variant="outline"
                  size="sm"
                  aria-label={text.unlinkLabel(link.label)}
                  onClick={() => ask(link)}
                >
                  {text.unlink}
                </CButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {asking && (
        <ConfirmDialog
          title={text.unlinkTitle(asking.label)}
          body={text.unlinkBody}
          confirmLabel={text.unlink}
          cancelLabel={securityMessages.cancel}
          danger
          busy={busy}
          error={error}
          onConfirm={() => void confirm(unlink)}
          onCancel={cancel}
        />
      )}
    </AccountCard>
  )
}
