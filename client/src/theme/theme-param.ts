import { isColorMode, type ColorMode } from '../state/color-mode'

/**
 * The `theme` query parameter, before the hash (`/?theme=dark#/login`) or inside it
 * (`/#/login?theme=dark`). A value is accepted only when it matches ^[A-Za-z0-9 ]+$ in full
 * (docs/architecture.md, "Fixed contracts") and names a mode, ignoring ASCII case (`DARK` is dark; `dark blue` is nothing).
 * Two or more `theme` parameters are ambiguous and all ignored. A rejected value changes nothing
 * and is never shown.
 */
export const THEME_PARAM = 'theme'
const ALLOWED = /^[A-Za-z0-9 ]+$/
/** No mode name is longer; checking the length first keeps a 10,000-character value cheap. */
const LONGEST_MODE = 5

export function parseThemeValue(value: string): ColorMode | null {
  if (value.length > LONGEST_MODE || !ALLOWED.test(value)) return null
  const mode = value.toLowerCase()
  return isColorMode(mode) ? mode : null
}

/** The query part of a hash route: `#/login?theme=dark` → `theme=dark`. */
function hashQuery(hash: string): string {
  const index = hash.indexOf('?')
  return index < 0 ? '' : hash.slice(index + 1)
}

export interface ThemeParam {
  /** Whether any `theme` parameter was in the URL (then it should be taken out of it). */
  present: boolean
  /** The mode it names, when there is exactly one and it is acceptable. */
  mode: ColorMode | null
}

export function readThemeParam(search: string, hash: string): ThemeParam {
  const values = [
    ...new URLSearchParams(search).getAll(THEME_PARAM),
    ...new URLSearchParams(hashQuery(hash)).getAll(THEME_PARAM),
  ]
  if (values.length === 0) return { present: false, mode: null }
  const [only] = values
  return {
    present: true,
    mode: values.length === 1 && only !== undefined ? parseThemeValue(only) : null,
  }
}

function withoutParam(query: string): string {
  const params = new URLSearchParams(query)
  params.delete(THEME_PARAM)
  const rest = params.toString()
  return rest === '' ? '' : `?${rest}`
}

/**
 * The same URL without its `theme` parameters: once applied (and stored, like a choice in the
 * switcher), the parameter has done its work, and leaving it would undo the user's next choice
 * on reload.
 */
export function urlWithoutThemeParam(location: {
  pathname: string
  search: string
  hash: string
}): string {
  const { pathname, search, hash } = location
  const index = hash.indexOf('?')
  const hashPath = index < 0 ? hash : hash.slice(0, index)
  const hashPart = index < 0 ? hash : hashPath + withoutParam(hash.slice(index + 1))
  return pathname + withoutParam(search.replace(/^\?/, '')) + hashPart
}
