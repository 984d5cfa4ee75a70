/** Longer than any real path of the panel (client/src/routing/redirect-target.ts has the same). */
const MAX_TARGET_LENGTH = 512

/**
 * The `redirect` the login page passes to the start: kept only when it is a path of this site
 * (one leading `/`, not `//` or `/\`, no scheme, control characters or fragment). It rides in the
 * sealed pending sign-in and comes back in the login page's address, where the page applies its
 * own, stricter rule (client/src/routing/redirect-target.ts) before going there.
 */
export function startRedirectTarget(raw: string | undefined): string | null {
  if (raw === undefined || raw.length === 0 || raw.length > MAX_TARGET_LENGTH) return null
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\#]/.test(raw)) return null
  try {
    const parsed = new URL(raw, 'http://painel.invalid')
    return parsed.origin === 'http://painel.invalid' ? parsed.pathname + parsed.search : null
  } catch {
    return null
  }
}
