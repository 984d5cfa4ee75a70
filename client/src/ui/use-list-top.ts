import { useCallback, useState } from 'react'

/**
 * The top of a list (its count line), for after "Próxima" or "Anterior": the next page starts
 * there in view, below the layout's sticky header (client/src/layout/app-header.tsx), and the
 * keyboard focus moves there too, so that Tab goes on into the new page's first row rather than
 * staying at the bottom by the buttons. Give the element `ref={attach}` and `tabIndex={-1}`.
 */
export function useListTop<E extends HTMLElement>() {
  // Held as state rather than a ref: the screen renders with `attach`, and only show() reads it.
  const [element, attach] = useState<E | null>(null)
  const show = useCallback(() => {
    if (!element) return
    element.focus({ preventScroll: true })
    const header = document.querySelector('.header-sticky')
    const below = header ? header.getBoundingClientRect().bottom : 0
    window.scrollBy({ top: element.getBoundingClientRect().top - below - 16 })
  }, [element])
  return { attach, show }
}
