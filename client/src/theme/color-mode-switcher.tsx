import { cilContrast, cilMoon, cilSun } from '@coreui/icons'
import CIcon from '@coreui/icons-react'
import { CDropdown, CDropdownItem, CDropdownMenu, CDropdownToggle } from '@coreui/react'
import { useAppDispatch, useAppSelector } from '../app/hooks'
import { messages } from '../messages'
import { COLOR_MODES, type ColorMode } from './color-mode'

const ICONS: Record<ColorMode, string[]> = { light: cilSun, dark: cilMoon, auto: cilContrast }
const LABELS: Record<ColorMode, string> = {
  light: messages.colorMode.light,
  dark: messages.colorMode.dark,
  auto: messages.colorMode.auto,
}

/**
 * Claro, Escuro, Automático. Choosing one only dispatches `set`; color-mode-sync.ts applies and
 * stores it. The dropdown opens with Enter, Space or the arrow keys, and Escape closes it.
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
      <CDropdownMenu>
        {COLOR_MODES.map((mode) => (
          <CDropdownItem
            key={mode}
            as="button"
            type="button"
            active={theme === mode}
            aria-pressed={theme === mode}
            className="d-flex align-items-center"
            onClick={() => dispatch({ type: 'set', theme: mode })}
          >
            <CIcon className="me-2" icon={ICONS[mode]} size="lg" aria-hidden="true" />
            {LABELS[mode]}
          </CDropdownItem>
        ))}
      </CDropdownMenu>
    </CDropdown>
  )
}
