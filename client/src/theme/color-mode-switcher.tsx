import { cilContrast, cilMoon, cilSun } from '@coreui/icons'
import CIcon from '@coreui/icons-react'
import { CDropdown, CDropdownItem, CDropdownMenu, CDropdownToggle } from '@coreui/react'
import { useAppDispatch, useAppSelector } from '../app/hooks'
import { messages } from '../messages'
import { COLOR_MODES, type ColorMode } from './color-mode'
import { chooseColorMode } from './color-mode-sync'

const ICONS: Record<ColorMode, string[]> = { light: cilSun, dark: cilMoon, auto: cilContrast }
const LABELS: Record<ColorMode, string> = {
  light: messages.colorMode.light,
  dark: messages.colorMode.dark,
  auto: messages.colorMode.auto,
}

/**
 * Claro, Escuro, Automático. A choice is stored and put in redux (chooseColorMode); the sync in
 * color-mode-sync.ts applies it. The dropdown opens with Enter, Space or the arrow keys, and Escape closes it.
 */
export function ColorModeSwitcher() {
  const dispatch = useAppDispatch()
  const theme = useAppSelector((state) => state.theme)

  return (
    <CDropdown variant="nav-item" placement="bottom-end">
      <CDropdownToggle
        navLink={false}
        caret={false}
        color=""
        className="py-0 px-2 border-0"
        aria-label={`${messages.colorMode.choose} (${messages.colorMode.label}: ${LABELS[theme]})`}
      >
        <CIcon icon={ICONS[theme]} size="lg" aria-hidden="true" />
      </CDropdownToggle>
      {/* A disclosure (see user-menu.tsx): the toggle's aria-expanded, then plain buttons. */}
      <CDropdownMenu role={undefined}>
        {COLOR_MODES.map((mode) => (
          <CDropdownItem
            key={mode}
            as="button"
            type="button"
            active={theme === mode}
            aria-pressed={theme === mode}
            className="d-flex align-items-center"
            onClick={() => chooseColorMode({ dispatch }, mode)}
          >
            <CIcon className="me-2" icon={ICONS[mode]} size="lg" aria-hidden="true" />
            {LABELS[mode]}
          </CDropdownItem>
        ))}
      </CDropdownMenu>
    </CDropdown>
  )
}
