import { useState } from 'react'
import type { StaffMember } from '../../api/staff-list-api'
import { mayActOn } from './staff-action-rules'

/** Who is selected on Equipe's page, for the bulk actions (bulk-actions.tsx). */
export interface StaffSelection {
  /**
   * Whether the row has a checkbox: not one's own account (changed in Minha conta), nor someone
   * whose role outranks the viewer's (staff-action-rules.ts: mayActOn).
   */
  selectable: (account: StaffMember) => boolean
  isSelected: (id: string) => boolean
  toggle: (id: string) => void
  /** The page's checkbox: every selectable row, some of them, or none. */
  page: 'all' | 'some' | 'none'
  togglePage: () => void
  /** The selected people, in the page's order. */
  selected: StaffMember[]
  clear: () => void
}

/**
 * The selection belongs to one page of one search (`pageKey`): another page, filter or order
 * starts with nothing selected, so an action never reaches someone no longer on screen. A row
 * that leaves the page on a reload leaves the selection with it.
 */
export function useStaffSelection(
  items: readonly StaffMember[],
  meId: string | undefined,
  pageKey: string,
  /** Whether the viewer may take any bulk action: without one, no row has a checkbox. */
  enabled = true,
): StaffSelection {
  const [state, setState] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: pageKey,
    ids: new Set(),
  })
  const ids = state.key === pageKey ? state.ids : new Set<string>()
  const selectable = (account: StaffMember) => enabled && mayActOn(account, meId)
  const rows = items.filter(selectable)
  const selected = rows.filter((account) => ids.has(account.id))
  const set = (next: Iterable<string>) => setState({ key: pageKey, ids: new Set(next) })
  const page = selected.length === 0 ? 'none' : selected.length === rows.length ? 'all' : 'some'

  return {
    selectable,
    isSelected: (id) => ids.has(id),
    toggle: (id) => {
      const next = new Set(selected.map((account) => account.id))
      if (next.has(id)) next.delete(id)
      else next.add(id)
      set(next)
    },
    page,
    togglePage: () => set(page === 'all' ? [] : rows.map((account) => account.id)),
    selected,
    clear: () => set([]),
  }
}
