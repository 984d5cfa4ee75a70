import { cilContrast, cilMoon, cilSun } from '@coreui/icons'
import { useSyncExternalStore } from 'react'
import { useAppDispatch, useAppSelector } from '../state/hooks'
import { messages } from '../words/messages'
import { COLOR_MODES, type ColorMode } from '../state/color-mode'
import { chooseColorMode } from './color-mode-sync'

const ICONS: Record<ColorMode, string[]> = { light: cilSun, dark: cilMoon, auto: cilContrast }
const LABELS: Record<ColorMode, string> = {
  light: messages.colorMode.light,
  dark: messages.colorMode.dark,
  auto: messages.colorMode.auto,
}

const subscribeToNothing = () => () => {}

/** False in the build's prerender and while React hydrates its HTML; true from then on. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  )
}

/**
 * The colour-mode choice on the public pages (sign-in, registration, recovery, 404, 500): three
 * toggle buttons rather than the header's dropdown, which would bring Popper onto the login
 * page's cold load for one menu. The choice is the same one (stored, followed by every tab).
 */
export function ColorModeButtons({ className = '' }: { className?: string }) {
  const dispatch = useAppDispatch()
  const theme = useAppSelector((state) => state.theme)
  // Not in the sign-in page the build prerenders (prerender/): there the buttons would do nothing
  // until the app arrives, and in dark mode show light as chosen (the store starts at its default,
  // so that hydration matches). They appear with the app, right at once; being placed absolutely,
  // nothing else moves. It also keeps 0.8 KB (brotli) of icons out of index.html.
  if (!useHydrated()) return null
  return (
    <div className={`btn-group ${className}`} role="group" aria-label={messages.colorMode.group}>
      {COLOR_MODES.map((mode) => (
        <button
          key={mode}
          type="button"
          className={`btn btn-sm ${theme === mode ? 'btn-secondary' : 'btn-outline-secondary'}`}
          aria-pressed={theme === mode}
          title={LABELS[mode]}
          onClick={() => chooseColorMode({ dispatch }, mode)}
        >
          {/*
            CoreUI's drawing, without its CIcon component: that would add its code to the login
            page's cold load for three icons.
          */}
          <svg
            width="16"
            height="16"
            viewBox={`0 0 ${ICONS[mode][0]}`}
            fill="currentColor"
            aria-hidden="true"
            focusable="false"
            dangerouslySetInnerHTML={{ __html: ICONS[mode][1] ?? '' }}
          />
          <span className="visually-hidden">{LABELS[mode]}</span>
        </button>
      ))}
    </div>
  )
}
