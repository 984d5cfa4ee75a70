import { DEFAULT_SIGNED_IN_PATH, PUBLIC_PATHS, REDIRECT_PARAM, paths } from './paths'

/** Longer than any real path of the panel; a longer value is someone playing with the URL. */
const MAX_TARGET_LENGTH = 512

/**
 * The remembered path, if it is safe to go to after sign-in: an inner path of this panel
 * (one leading `/`, not `//` or `/\`, no scheme, no control characters, not a public page).
 * Anything else gives null, and the caller goes to the dashboard: no open redirect.
 */
export function safeRedirectTarget(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_TARGET_LENGTH) return null
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null
  let parsed: URL
  try {
    // Resolving against a fixed origin shows what a browser would make of the value.
    parsed = new URL(raw, 'http://painel.invalid')
  } catch {
    return null
  }
  if (parsed.origin !== 'http://painel.invalid' || parsed.hash !== '') return null
  if (PUBLIC_PATHS.includes(parsed.pathname)) return null
  return parsed.pathname + parsed.search
}

/** Where to go after signing in, given the login page's query string. */
export function afterSignInPath(search: string): string {
  return (
    safeRedirectTarget(new URLSearchParams(search).get(REDIRECT_PARAM)) ?? DEFAULT_SIGNED_IN_PATH
  )
}

/** The login page, remembering the inner path the user was trying to open. */
export function loginPathFor(wanted: { pathname: string; search: string }): string {
  const target = safeRedirectTarget(wanted.pathname + wanted.search)
  if (target === null || target === DEFAULT_SIGNED_IN_PATH) return paths.login
  return `${paths.login}?${new URLSearchParams({ [REDIRECT_PARAM]: target }).toString()}`
}
