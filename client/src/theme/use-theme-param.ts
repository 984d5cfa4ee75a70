import { useEffect } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { useAppDispatch } from '../state/hooks'
import { chooseColorMode } from './color-mode-sync'
import { readThemeParam, THEME_PARAM } from './theme-param'

/**
 * The `theme` parameter typed into the hash after the page has loaded (`#/perfil?theme=dark`):
 * the boot script handled the one present at load; this handles later ones the same way.
 */
export function useThemeParam(): void {
  const location = useLocation()
  const navigate = useNavigate()
  const dispatch = useAppDispatch()

  useEffect(() => {
    const param = readThemeParam('', `#${location.pathname}${location.search}`)
    if (!param.present) return
    if (param.mode) chooseColorMode({ dispatch }, param.mode)
    const rest = new URLSearchParams(location.search)
    rest.delete(THEME_PARAM)
    const search = rest.toString()
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '' },
      { replace: true },
    )
  }, [location.pathname, location.search, dispatch, navigate])
}
