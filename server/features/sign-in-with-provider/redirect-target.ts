/** Longer than any real path of the panel (client/src/routing/redirect-target.ts has the same). */
const MAX_TARGET_LENGTH = 512

/**
 * The `redirect` the login page passes to the start: kept only when it is a path of this site
 * (one leading `/`, not `//` or `/\`, no scheme, control characters, fragment or dot segment)
 * and stays one once the URL parser has normalised it. It rides in the sealed pending sign-in and
 * comes back in the login page's address, where the page applies its own, stricter rule
 * (client/src/routing/redirect-target.ts) before going there.
 */
export function startRedirectTarget(raw: string | undefined): string | null {
  if (raw === undefined || raw.length === 0 || raw.length > MAX_TARGET_LENGTH) return null
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\#]/.test(raw)) return null
  // A dot segment, plain or percent-encoded (`/..//evil.test`, `/.%2e/%2e%2e//evil.test`), is
  // what normalises into `//evil.test`: no path of the panel needs one.
  if (/(?:^|\/)(?:\.|%2e){1,2}(?:[/?]|$)/i.test(raw)) return null
  try {
    const parsed = new URL(raw, 'http://painel.invalid')
    const target = parsed.pathname + parsed.search
    if (parsed.origin !== 'http://painel.invalid' || /^\/[/\\]/.test(target)) return null
    return target
  } catch {
    return null
  }
}
