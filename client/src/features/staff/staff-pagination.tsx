import { CButton } from '@coreui/react'
import { staffMessages } from './staff-messages'

const text = staffMessages.staff

/** Equipe's previous / page n of m / next, shown when the list has more than one page. */
export function StaffPagination({
  page,
  pages,
  goTo,
}: {
  page: number
  pages: number
  goTo: (page: number) => void
}) {
  if (pages <= 1) return null
  return (
    <nav aria-label={text.pagination} className="d-flex align-items-center gap-2 mt-3">
      <CButton
        color="secondary"
        variant="outline"
        size="sm"
        disabled={page <= 1}
        onClick={() => goTo(page - 1)}
      >
        {text.previous}
      </CButton>
      <span>{text.page(page, pages)}</span>
      <CButton
        color="secondary"
        variant="outline"
        size="sm"
        disabled={page >= pages}
        onClick={() => goTo(page + 1)}
      >
        {text.next}
      </CButton>
    </nav>
  )
}
