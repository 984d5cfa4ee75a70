import { CButton } from '@coreui/react'
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react'
import { type StaffBulkAction, type StaffBulkAnswer } from '../../../../common/api/staff'
import type { StaffMember } from '../../api/staff-list-api'
import { announceStaffChange } from '../../api/staff-changed-event'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { adminMessages } from '../../words/admin-messages'
import { bulkMessages } from './bulk-messages'
import { bulkChangeStaff } from './staff-api'
import type { StaffSelection } from './staff-selection'
import { WholeEmail } from './whole-email'
import { RefusalReasonField } from './refusal-reason-field'

const text = bulkMessages

/**
 * Whom of the selection an action is for: approving and refusing are for pending registrations,
 * disabling for accounts that can sign in or are invited. The others are left out, and the
 * dialog says how many.
 */
export function appliesTo(action: StaffBulkAction, account: StaffMember): boolean {
  if (action === 'disable') return account.status === 'active' || account.status === 'invited'
  return account.status === 'pending'
}

/** What the server did for each person, by name, for the summary. */
export interface BulkSummary {
  action: StaffBulkAction
  done: string[]
  already: string[]
  failed: { name: string; message: string }[]
}

function summarise(
  action: StaffBulkAction,
  people: readonly StaffMember[],
  { results }: StaffBulkAnswer,
): BulkSummary {
  const nameOf = new Map(people.map((person) => [person.id.toLowerCase(), person.name]))
  const summary: BulkSummary = { action, done: [], already: [], failed: [] }
  for (const result of results) {
    const name = nameOf.get(result.id.toLowerCase()) ?? result.id
    if (result.outcome === 'done') summary.done.push(name)
    else if (result.outcome === 'already_done') summary.already.push(name)
    else summary.failed.push({ name, message: result.error?.message ?? '' })
  }
  return summary
}

/**
 * The bar pinned to the bottom of a phone's screen while people are selected: the manager ticks
 * people further down the cards and "Aprovar (N)" stays in reach of the thumb. Sticky, not
 * fixed: placed after the list (staff-screen.tsx), it rests there once the list's end is reached,
 * covering neither the last card nor the pages' buttons.
 */
const PINNED: CSSProperties = {
  position: 'sticky',
  bottom: 0,
  zIndex: 1010,
  marginTop: '0.75rem',
  boxShadow: '0 -0.25rem 0.75rem rgba(0, 0, 0, 0.15)',
}

/**
 * While the bar is pinned, a control that takes the focus is scrolled clear of it: else Tab down
 * the cards put the next checkbox or button under the bar, where a keyboard user could not see
 * it. The root's scroll-padding-bottom (the bar's height, which grows when its buttons wrap) tells
 * the browser; a control it judged already in view (partly under the bar: Chromium leaves it) is
 * moved up by what the bar covers, once the browser's own scrolling is done.
 */
function useRoomForPinnedBar(bar: HTMLElement | null, pinned: boolean) {
  useEffect(() => {
    if (!pinned || !bar) return
    const root = document.documentElement
    const fit = () => {
      root.style.scrollPaddingBottom = `${bar.getBoundingClientRect().height}px`
    }
    fit()
    const watcher = new ResizeObserver(fit)
    watcher.observe(bar)
    let frame = 0
    const clear = (event: FocusEvent) => {
      const focused = event.target
      if (!(focused instanceof HTMLElement) || bar.contains(focused)) return
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        const covered = focused.getBoundingClientRect().bottom - bar.getBoundingClientRect().top
        if (covered > 0) window.scrollBy(0, covered + 8)
      })
    }
    document.addEventListener('focusin', clear)
    return () => {
      watcher.disconnect()
      document.removeEventListener('focusin', clear)
      cancelAnimationFrame(frame)
      root.style.scrollPaddingBottom = ''
    }
  }, [bar, pinned])
}

/**
 * Equipe's bulk actions on the selected people: a bar of buttons while someone is selected
 * (`pinned`: at the bottom of a phone's screen), one confirmation naming how many and who, and a
 * summary of what was done, what was so already (another admin did it meanwhile) and what could
 * not be done, and why.
 */
export function useBulkActions(
  selection: StaffSelection,
  allowed: readonly StaffBulkAction[],
  onDone: () => void,
  pinned = false,
) {
  const { asking, busy, error, ask, confirm, cancel } = useConfirmedAction<{
    action: StaffBulkAction
    people: StaffMember[]
  }>()
  const [reason, setReason] = useState('')
  const [summary, setSummary] = useState<BulkSummary | null>(null)
  const { selected } = selection
  const [barElement, setBarElement] = useState<HTMLDivElement | null>(null)
  useRoomForPinnedBar(barElement, pinned)

  const act = async ({ action, people }: { action: StaffBulkAction; people: StaffMember[] }) => {
    const trimmed = reason.trim()
    const answer = await bulkChangeStaff({
      action,
      ids: people.map((person) => person.id),
      ...(action === 'refuse' && trimmed ? { reason: trimmed } : {}),
    })
    setSummary(summarise(action, people, answer))
    selection.clear()
    announceStaffChange()
    onDone()
  }

  const bar =
    selected.length === 0 ? null : (
      <div
        ref={setBarElement}
        role="toolbar"
        aria-label={text.toolbar}
        className="d-flex flex-wrap align-items-center gap-2 mb-3 p-2 border rounded bg-body-tertiary"
        style={pinned ? PINNED : undefined}
      >
        <span className="me-auto small fw-semibold" role="status">
          {text.selected(selected.length)}
        </span>
        {allowed.map((action) => {
          const people = selected.filter((account) => appliesTo(action, account))
          if (people.length === 0) return null
          return (
            <CButton
              key={action}
              size="sm"
              color={action === 'approve' ? 'primary' : 'danger'}
              variant={action === 'approve' ? undefined : 'outline'}
              aria-label={text.buttonLabel[action](people.length)}
              onClick={() => {
                setReason('')
                setSummary(null)
                ask({ action, people })
              }}
            >
              {text.button[action](people.length)}
            </CButton>
          )
        })}
        <CButton size="sm" color="secondary" variant="outline" onClick={selection.clear}>
          {text.clear}
        </CButton>
      </div>
    )

  let dialog: ReactNode = null
  if (asking) {
    const { action, people } = asking
    const words = text.confirm[action](people.length)
    const leftOut = selected.length - people.length
    dialog = (
      <ConfirmDialog
        title={words.title}
        body={words.body}
        confirmLabel={words.button}
        cancelLabel={adminMessages.cancel}
        danger={action !== 'approve'}
        busy={busy}
        error={error}
        onConfirm={() => void confirm(act)}
        onCancel={cancel}
      >
        <ul
          aria-label={words.title}
          className="mb-3 ps-3"
          style={{ maxHeight: '12rem', overflowY: 'auto', overflowWrap: 'anywhere' }}
        >
          {people.map((person) => (
            <li key={person.id}>
              {person.name}
              <WholeEmail email={person.email} className="text-body-secondary small" />
            </li>
          ))}
        </ul>
        {leftOut > 0 && <p className="small text-body-secondary">{text.leftOut(leftOut)}</p>}
        {action === 'refuse' && (
          <RefusalReasonField label={text.reason} value={reason} onChange={setReason} />
        )}
      </ConfirmDialog>
    )
  }

  return {
    bar,
    dialog,
    summary: summary && <BulkResult summary={summary} onClose={() => setSummary(null)} />,
    dismissSummary: () => setSummary(null),
  }
}

/** The result of a bulk action, announced as it appears; it stays until dismissed. */
function BulkResult({ summary, onClose }: { summary: BulkSummary; onClose: () => void }) {
  const { action, done, already, failed } = summary
  return (
    <div className={`alert alert-${failed.length > 0 ? 'warning' : 'success'} mb-3`} role="status">
      <div className="d-flex align-items-start gap-2">
        <div className="me-auto" style={{ overflowWrap: 'anywhere' }}>
          <h2 className="h6 mb-1">{text.summary.title}</h2>
          {done.length > 0 && <p className="mb-1">{text.summary.done[action](done)}</p>}
          {already.length > 0 && <p className="mb-1">{text.summary.already[action](already)}</p>}
          {failed.length > 0 && (
            <>
              <p className="mb-1">{text.summary.failed(failed.length)}</p>
              <ul className="mb-0">
                {failed.map(({ name, message }) => (
                  <li key={name}>{text.summary.failedOne(name, message)}</li>
                ))}
              </ul>
            </>
          )}
        </div>
        <button
          type="button"
          className="btn-close"
          aria-label={text.closeSummary}
          onClick={onClose}
        />
      </div>
    </div>
  )
}
