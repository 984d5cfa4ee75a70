import { cilContrast, cilMoon, cilSun } from '@coreui/icons'
import CIcon from '@coreui/icons-react'
import { CDropdownItem } from '@coreui/react'
import { HeaderMenu } from './header-menu'
import { useAppDispatch, useAppSelector } from '../state/hooks'
import { messages } from '../words/messages'
import { COLOR_MODES, type ColorMode } from '../state/color-mode'
import { chooseColorMode } from '../theme/color-mode-sync'

const ICONS: Record<ColorMode, string[]> = { light: cilSun, dark: cilMoon, auto: cilContrast }
const LABELS: Record<ColorMode, string> = {
  light: messages.colorMode.light,
  dark: messages.colorMode.dark,
  auto: messages.colorMode.auto,
}

/**
 * Claro, Escuro, Automático. A choice is stored and put in redux (chooseColorMode); the sync in
 * color-mode-sync.ts applies it.
 */
export function ColorModeSwitcher() {
  const dispatch = useAppDispatch()
  const theme = useAppSelector((state) => state.theme)

  return (
    <HeaderMenu
      label={`${messages.colorMode.choose} (${messages.colorMode.label}: ${LABELS[theme]})`}
      toggleClassName="px-2"
      toggle={<CIcon icon={ICONS[theme]} size="lg" aria-hidden="true" />}
    >
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
    </HeaderMenu>
  )
}
