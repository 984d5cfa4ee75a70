import { CDropdown, CDropdownMenu, CDropdownToggle } from '@coreui/react'
import type { ReactNode } from 'react'

/**
 * A menu in the header (the user menu, the colour-mode switcher), built as a disclosure, not an
 * ARIA menu: CoreUI marks the list role="menu" but fills it with plain list items, which a screen
 * reader then reads as a broken menu. Without the role it is what it is: a button
 * (aria-expanded) that shows a list of links and buttons. It opens with Enter, Space or the
 * arrow keys, and Escape closes it.
 */
export function HeaderMenu({
  label,
  toggle,
  toggleClassName,
  menuClassName,
  children,
}: {
  /** The toggle's accessible name: it shows an icon or an avatar only. */
  label: string
  toggle: ReactNode
  toggleClassName: string
  menuClassName?: string
  children: ReactNode
}) {
  return (
    <CDropdown variant="nav-item" placement="bottom-end">
      <CDropdownToggle
        navLink={false}
        caret={false}
        color=""
        className={`py-0 border-0 ${toggleClassName}`}
        aria-label={label}
      >
        {toggle}
      </CDropdownToggle>
      <CDropdownMenu className={menuClassName} role={undefined}>
        {children}
      </CDropdownMenu>
    </CDropdown>
  )
}
