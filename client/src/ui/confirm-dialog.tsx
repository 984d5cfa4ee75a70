import { CButton, CSpinner } from '@coreui/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Notice } from './notice'
import { wholeWords } from './whole-words'

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]), select, textarea, [tabindex="0"]'

/**
 * Focus back on what opened a dialog once it closes. The browser does that only while the dialog
 * is still in the page; React removes it first. The opener may be a menu item that is hidden by
 * now (its menu's toggle then), or go away a moment later, when the list it was in reloads (the
 * row approved, the session ended): focus then moves to the nearest row that still has an action,
 * else to the list's card heading, rather than falling to the page's body.
 */
function returnFocus(opener: HTMLElement) {
  const target =
    opener
      .closest('.dropdown-menu')
      ?.parentElement?.querySelector<HTMLElement>('.dropdown-toggle') ?? opener
  const row = target.closest('li, tr')
  // The same place in the next row: "Aprovar" after "Aprovar", not the next row's name link.
  const column = row ? [...row.querySelectorAll(FOCUSABLE)].indexOf(target) : 0
  const rows: Element[] = []
  for (let next = row?.nextElementSibling; next; next = next.nextElementSibling) rows.push(next)
  for (
    let previous = row?.previousElementSibling;
    previous;
    previous = previous.previousElementSibling
  )
    rows.push(previous)
  const ancestors: Element[] = []
  for (let parent = target.parentElement; parent; parent = parent.parentElement)
    ancestors.push(parent)

  const neighbour = () => {
    for (const candidate of rows) {
      const actions = candidate.isConnected
        ? [...candidate.querySelectorAll<HTMLElement>(FOCUSABLE)]
        : []
      if (actions.length > 0) return actions[Math.min(Math.max(column, 0), actions.length - 1)]
    }
    const heading = ancestors
      .find((ancestor) => ancestor.isConnected && ancestor.querySelector('h1, h2, h3'))
      ?.querySelector<HTMLElement>('h1, h2, h3')
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1
    return heading
  }
  const lost = () => document.activeElement === null || document.activeElement === document.body

  target.focus()
  if (document.activeElement !== target) return neighbour()?.focus()
  const watcher = new MutationObserver(() => {
    if (target.isConnected) return
    stop()
    if (lost()) neighbour()?.focus()
  })
  const moved = (event: FocusEvent) => event.target !== target && stop()
  const stop = () => {
    watcher.disconnect()
    document.removeEventListener('focusin', moved)
    clearTimeout(timer)
  }
  // A list reloads within seconds; past that, a removal is not this dialog's doing.
  const timer = setTimeout(stop, 10_000)
  watcher.observe(document.body, { childList: true, subtree: true })
  document.addEventListener('focusin', moved)
}

/**
 * A modal question before an action: the browser's own <dialog> (focus kept inside, the page
 * behind inert), styled with CoreUI's variables through the style attribute so the shared
 * stylesheet does not grow. Escape cancels, unless `onEscape` says otherwise.
 * `alert`: something is about to happen without the user (the idle warning): an alert dialog,
 * its confirming button focused.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  cancelLabel,
  danger = false,
  alert = false,
  busy,
  error,
  children,
  onConfirm,
  onCancel,
  onEscape = onCancel,
}: {
  title: string
  body: string
  confirmLabel: string
  cancelLabel: string
  danger?: boolean
  alert?: boolean
  busy: boolean
  error: string | null
  children?: ReactNode
  onConfirm: () => void
  onCancel: () => void
  onEscape?: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const bodyId = useId()

  useEffect(() => {
    const element = dialog.current
    const opener = document.activeElement
    if (element && !element.open) element.showModal()
    if (alert) confirmButton.current?.focus()
    return () => {
      element?.close()
      if (opener instanceof HTMLElement && opener !== document.body) returnFocus(opener)
    }
  }, [alert])

  return (
    <dialog
      ref={dialog}
      role={alert ? 'alertdialog' : undefined}
      aria-modal={alert ? 'true' : undefined}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={(event) => {
        // A modal <dialog> makes the page inert, yet Tab from its last control leaves the page
        // for the browser's own bar: wrap round instead, as a dialog should.
        if (event.key !== 'Tab') return
        const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)]
        const edge = event.shiftKey ? controls[0] : controls[controls.length - 1]
        if (edge && document.activeElement === edge) {
          event.preventDefault()
          ;(event.shiftKey ? controls[controls.length - 1] : controls[0])?.focus()
        }
      }}
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onEscape()
      }}
      style={{
        width: `min(${alert ? 28 : 32}rem, calc(100vw - 2rem))`,
        padding: 0,
        border: '1px solid var(--cui-border-color)',
        borderRadius: 'var(--cui-border-radius-lg)',
        background: 'var(--cui-body-bg)',
        color: 'var(--cui-body-color)',
        boxShadow: 'var(--cui-box-shadow-lg)',
      }}
    >
      {/* noValidate: a dialog's fields are checked by its own code, in pt-BR, never by the
          browser's bubble in the browser's language. */}
      <form
        method="dialog"
        noValidate
        className="p-3"
        onSubmit={(event) => {
          event.preventDefault()
          if (!busy) onConfirm()
        }}
      >
        <h2 id={titleId} className="h5">
          {title}
        </h2>
        <p id={bodyId}>{wholeWords(body)}</p>
        {children}
        <Notice text={error} />
        <div className="d-flex flex-wrap justify-content-end gap-2">
          {/* While busy the buttons say so (aria-disabled, CoreUI's disabled look) but keep the
              focus: a disabled button drops it to the page's body, and after a refusal a
              keyboard user would start again from the top instead of from the button. */}
          <CButton
            type="button"
            color="secondary"
            variant="outline"
            aria-disabled={busy || undefined}
            className={busy ? 'disabled' : undefined}
            onClick={() => {
              if (!busy) onCancel()
            }}
          >
            {cancelLabel}
          </CButton>
          <CButton
            ref={confirmButton}
            type="submit"
            color={danger ? 'danger' : 'primary'}
            aria-disabled={busy || undefined}
            className={busy ? 'disabled' : undefined}
          >
            {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
            {confirmLabel}
          </CButton>
        </div>
      </form>
    </dialog>
  )
}
