import { CButton, CFormInput, CFormLabel, CSpinner } from '@coreui/react'
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react'
import { securityMessages } from './second-factor-messages'
import { ApiError, errorMessage } from '../session/api-client'
import { formatDateTime } from '../ui/format-date'
import { ConfirmDialog } from '../ui/confirm-dialog'
import {
  fetchMfaStatus,
  listPasskeys,
  removePasskey,
  renamePasskey,
  type Passkey,
} from './second-factor-api'
import { Notice } from '../ui/notice'
import { AccountCard } from '../ui/account-card'
import { useFormDraft } from '../session/form-draft'

const text = securityMessages.passkeys

const nameOf = (event: FormEvent<HTMLFormElement>) => {
  const value = new FormData(event.currentTarget).get('name')
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * Minha conta › Chaves de acesso: list, add (named), rename, remove. `onAdded`: told when a
 * passkey has been added (the second-factor setup screen then moves on).
 */
export function PasskeysCard({ onAdded }: { onAdded?: () => void }) {
  const id = useId()
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)
  const [round, setRound] = useState(0)
  const { ref: draftRef, clear: clearDraft } = useFormDraft<HTMLFormElement>('passkey')
  const [removing, setRemoving] = useState<{ passkey: Passkey; last: boolean } | null>(null)
  const [removeBusy, setRemoveBusy] = useState(false)
  const [removeError, setRemoveError] = useState<string | null>(null)
  const renameButtons = useRef(new Map<string, HTMLButtonElement>())
  const focusAfterRename = useRef<string | null>(null)

  // Closing the rename field (saved, Cancelar, Escape) puts the focus back on its "Renomear".
  useEffect(() => {
    const closed = focusAfterRename.current
    if (renaming !== null || closed === null) return
    focusAfterRename.current = null
    renameButtons.current.get(closed)?.focus()
  }, [renaming, passkeys])

  const stopRenaming = () => {
    focusAfterRename.current = renaming
    setRenaming(null)
  }
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && busy === null) {
      event.preventDefault()
      stopRenaming()
    }
  }

  const reload = useCallback((signal?: AbortSignal) => {
    listPasskeys(signal).then(
      (list) => setPasskeys(list.passkeys),
      (error: unknown) => {
        if (!signal?.aborted) {
          setNotice({ text: errorMessage(error), error: true })
        }
      },
    )
  }, [])
  useEffect(() => {
    const controller = new AbortController()
    reload(controller.signal)
    return () => controller.abort()
  }, [reload])

  const run = async (what: string, work: () => Promise<string>, failed = text.failed) => {
    setBusy(what)
    setNotice(null)
    try {
      setNotice({ text: await work(), error: false })
      reload()
    } catch (error) {
      const message =
        error instanceof ApiError && error.status !== 0
          ? error.message
          : typeof window.PublicKeyCredential === 'function'
            ? failed
            : text.unsupported
      setNotice({ text: message, error: true })
    } finally {
      setBusy(null)
    }
  }

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const name = nameOf(event)
    if (name === '') return setNotice({ text: text.nameRequired, error: true })
    void run('add', async () => {
      const { registerPasskey } = await import('./passkey-registration')
      await registerPasskey(name)
      clearDraft()
      setRound((value) => value + 1)
      onAdded?.()
      return text.added
    })
  }

  const rename = (event: FormEvent<HTMLFormElement>, passkey: Passkey) => {
    event.preventDefault()
    const name = nameOf(event)
    if (name === '') return setNotice({ text: text.nameRequired, error: true })
    void run(passkey.id, async () => {
      await renamePasskey(passkey.id, name)
      focusAfterRename.current = passkey.id
      setRenaming(null)
      return text.renamed
    })
  }

  /** Asks first; the last passkey without an authenticator app is the last second factor. */
  const askRemove = async (passkey: Passkey) => {
    setRemoveError(null)
    let last = false
    if (passkeys?.length === 1) {
      last = await fetchMfaStatus().then(
        (status) => !status.totp,
        () => true,
      )
    }
    setRemoving({ passkey, last })
  }

  const remove = async () => {
    if (!removing) return
    setRemoveBusy(true)
    setRemoveError(null)
    try {
      await removePasskey(removing.passkey.id)
      setRemoving(null)
      setNotice({ text: text.removed, error: false })
      reload()
    } catch (error) {
      setRemoveError(errorMessage(error))
    } finally {
      setRemoveBusy(false)
    }
  }

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {notice && <Notice color={notice.error ? 'danger' : 'success'} text={notice.text} />}
      {passkeys === null && !notice && (
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {securityMessages.loading}
        </div>
      )}
      {passkeys?.length === 0 && <p>{text.none}</p>}
      {passkeys && passkeys.length > 0 && (
        <ul className="list-unstyled mb-3" aria-label={text.title}>
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="border-bottom py-2">
              {renaming === passkey.id ? (
                <form
                  noValidate
                  className="d-flex flex-wrap align-items-end gap-2"
                  onSubmit={(event) => rename(event, passkey)}
                  onKeyDown={cancelOnEscape}
                >
                  <div>
                    <CFormLabel htmlFor={`${id}-${passkey.id}`} className="small mb-1">
                      {text.name}
                    </CFormLabel>
                    <CFormInput
                      id={`${id}-${passkey.id}`}
                      name="name"
                      defaultValue={passkey.name}
                      maxLength={100}
                      autoFocus
                    />
                  </div>
                  <CButton type="submit" color="primary" size="sm" disabled={busy !== null}>
                    {text.save}
                  </CButton>
                  <CButton color="secondary" variant="outline" size="sm" onClick={stopRenaming}>
                    {securityMessages.cancel}
                  </CButton>
                </form>
              ) : (
                <div className="d-flex flex-wrap align-items-start justify-content-between gap-2">
                  <div>
                    <div className="fw-semibold">{passkey.name}</div>
                    <div className="small text-body-secondary">
                      {text.created}: {formatDateTime(passkey.createdAt)} · {text.lastUsed}:{' '}
                      {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : text.never}
                    </div>
                  </div>
                  <div className="d-flex gap-2">
                    <CButton
                      ref={(button: HTMLButtonElement | null) => {
                        if (button) renameButtons.current.set(passkey.id, button)
                        else renameButtons.current.delete(passkey.id)
                      }}
                      color="secondary"
                      variant="outline"
                      size="sm"
                      aria-label={text.renameLabel(passkey.name)}
                      onClick={() => setRenaming(passkey.id)}
                    >
                      {text.rename}
                    </CButton>
                    <CButton
                      color="danger"
                      variant="outline"
                      size="sm"
                      disabled={busy !== null}
                      aria-label={text.removeLabel(passkey.name)}
                      onClick={() => void askRemove(passkey)}
                    >
                      {text.remove}
                    </CButton>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {/* Hidden, not removed, while a passkey is renamed: one name field on screen at a time,
          and what was typed here stays. */}
      <form
        key={round}
        ref={draftRef}
        hidden={renaming !== null}
        noValidate
        // d-flex would beat the hidden attribute's display: none.
        className={renaming === null ? 'd-flex flex-wrap align-items-end gap-2' : undefined}
        onSubmit={add}
        aria-busy={busy === 'add'}
      >
        <div style={{ flex: '1 1 14rem' }}>
          <CFormLabel htmlFor={`${id}-new`}>{text.name}</CFormLabel>
          <CFormInput
            id={`${id}-new`}
            name="name"
            maxLength={100}
            autoComplete="off"
            placeholder={text.namePlaceholder}
          />
        </div>
        <CButton type="submit" color="primary" disabled={busy !== null}>
          {busy === 'add' && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
          {text.add}
        </CButton>
      </form>
      {removing && (
        <ConfirmDialog
          title={text.removeTitle(removing.passkey.name)}
          body={removing.last ? text.removeLastBody : text.removeBody}
          confirmLabel={text.remove}
          cancelLabel={securityMessages.cancel}
          danger
          busy={removeBusy}
          error={removeError}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      )}
    </AccountCard>
  )
}
