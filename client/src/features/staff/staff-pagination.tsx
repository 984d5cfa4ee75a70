import { CButton } from '@coreui/react'
import type { FilterChanges } from '../../routing/filter-params'
import { staffMessages } from './staff-messages'

const text = staffMessages.staff

/** Where the list is, as GET /api/staff answers it (common/api/staff.ts). */
export interface ListPosition {
  page: number
  pageSize: number
  total: number
  /** false: more than `total` (a search counts up to a cap). Absent from older backends. */
  totalExact?: boolean
  /** The cursors of the pages beside this one; absent from older backends, which page by number. */
  next?: string | null
  previous?: string | null
}

/**
 * The URL's position changes that go to the first, previous, next or last page: by the cursors
 * the answer carries, or by number from a backend that pages only so.
 */
export function positionChanges(list: ListPosition) {
  const clear = { page: undefined, after: undefined, before: undefined }
  const keyed = list.next !== undefined
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize))
  return {
    first: clear,
    previous: keyed
      ? list.page <= 2 || !list.previous
        ? clear
        : { ...clear, before: list.previous }
      : { ...clear, page: list.page > 2 ? String(list.page - 1) : undefined },
    next: keyed
      ? { ...clear, after: list.next ?? undefined }
      : { ...clear, page: String(list.page + 1) },
    last: keyed ? { ...clear, page: 'last' } : { ...clear, page: String(pages) },
    hasPrevious: list.page > 1,
    hasNext: keyed ? Boolean(list.next) : list.page < pages,
    /** null where the number of pages is not known. */
    pages: list.totalExact === false ? null : pages,
  }
}

/**
 * Equipe's first / previous / page n of m / next / last, shown when the list has more than one
 * page. Past the count's cap the number of pages is not known: "Página n", and no "Última".
 */
export function StaffPagination({
  list,
  goTo,
}: {
  list: ListPosition
  goTo: (changes: FilterChanges) => void
}) {
  const position = positionChanges(list)
  if (!position.hasPrevious && !position.hasNext) return null
  const button = (label: string, enabled: boolean, changes: FilterChanges) => (
    <CButton
      color="secondary"
      variant="outline"
      size="sm"
      disabled={!enabled}
      onClick={() => goTo(changes)}
    >
      {label}
    </CButton>
  )
  return (
    <nav aria-label={text.pagination} className="d-flex flex-wrap align-items-center gap-2 mt-3">
      {button(text.first, position.hasPrevious, position.first)}
      {button(text.previous, position.hasPrevious, position.previous)}
      <span>
        {position.pages === null ? text.pageOf(list.page) : text.page(list.page, position.pages)}
      </span>
      {button(text.next, position.hasNext, position.next)}
      {position.pages !== null && button(text.last, position.hasNext, position.last)}
    </nav>
  )
}
