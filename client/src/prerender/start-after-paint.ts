import { APP_SCRIPTS_META } from './prerender-markup'

/**
 * Fetches and starts the app (the scripts index.html names in APP_SCRIPTS_META) once the first
 * frame has been painted. With the sign-in page prerendered, the HTML and the stylesheet are all
 * that paint needs. Scripts requested with the page would compete with the stylesheet for a slow
 * link (Chromium holds low-priority requests back until it has arrived anyway), and once there,
 * run before the paint: evaluating React and hydrating take hundreds of milliseconds of a phone's
 * CPU with nothing on the screen. After the paint they download while the person reads and types;
 * "Entrar" pressed before they run is held (early-submit.ts). The entry and the modules it imports
 * are requested together, so there is no waterfall.
 *
 * Two animation frames: the second comes after the first was painted. A hidden tab paints
 * nothing and runs no animation frames: there the app starts at once.
 */
export function startAppAfterFirstPaint(): void {
  let started = false
  const start = () => {
    if (started) return
    started = true
    const meta = document.querySelector<HTMLMetaElement>(`meta[name="${APP_SCRIPTS_META}"]`)
    const [entry, ...imports] = meta?.content.split(' ').filter(Boolean) ?? []
    if (!entry) return
    for (const href of imports) {
      const preload = document.createElement('link')
      preload.rel = 'modulepreload'
      preload.href = href
      document.head.append(preload)
    }
    const script = document.createElement('script')
    script.type = 'module'
    script.src = entry
    document.head.append(script)
  }
  const afterParsing = () => {
    if (document.visibilityState === 'hidden') start()
    else requestAnimationFrame(() => requestAnimationFrame(start))
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', afterParsing, { once: true })
  } else {
    afterParsing()
  }
}
