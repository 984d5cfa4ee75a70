import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * The top of a list (its count line), for after "Próxima" or "Anterior": once the new page is
 * shown (`settled`: nothing is being fetched), it is scrolled into view below the layout's sticky
 * header (client/src/layout/app-header.tsx) and takes the keyboard focus, so that Tab goes on
 * into the new page's first row rather than staying at the foot by the buttons. Waiting for the
 * page keeps what arrives (and the busy "Atualizar" above) from moving it after the scroll. Give
 * the element `ref={attach}` and `tabIndex={-1}`.
 */
export function useListTop<E extends HTMLElement>(settled: boolean) {
  // Held as state rather than a ref: the screen renders with `attach`, and only the effect reads it.
  const [element, attach] = useState<E | null>(null)
  const wanted = useRef(false)
  useEffect(() => {
    if (!wanted.current || !settled || !element) return
    wanted.current = false
    element.focus({ preventScroll: true })
    // Below the header while it sticks to the top; a header scrolled away covers nothing.
    const header = document.querySelector('.header-sticky')
    const below = Math.max(0, header?.getBoundingClientRect().bottom ?? 0)
    // Smoothly where the stylesheet asks for it (Bootstrap's scroll-behavior, off with reduced motion).
    window.scrollBy({ top: element.getBoundingClientRect().top - below - 16 })
  }, [settled, element])
  /** Call with the change of page. */
  const show = useCallback(() => {
    wanted.current = true
  }, [])
  return { attach, show }
}
