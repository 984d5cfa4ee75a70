import { requestAppStylesheet } from './app-stylesheet'
import { APP_SCRIPTS_META } from './prerender-markup'
import { LOAD_ATTRIBUTE } from './sign-in-load'

/** When no paint is reported (a browser without paint timing): start anyway after this long. */
const PAINT_WAIT_LIMIT_MS = 1000

/**
 * Fetches and starts the app (the scripts index.html names in APP_SCRIPTS_META) once the first
 * frame has been painted. With the sign-in page prerendered, the HTML and the CSS inline in it are
 * all that paint needs. Scripts requested with the page would compete with it and the boot script
 * for a slow link, and once there, run before the paint: evaluating React and hydrating take hundreds of milliseconds of a phone's
 * CPU with nothing on the screen. After the paint they download while the person reads and types;
 * "Entrar" pressed before they run is held (early-submit.ts). The entry and the modules it imports
 * are requested together, so there is no waterfall.
 *
 * On a sign-in load the app waits for the browser to report the form's paint (paint timing:
 * when the frame was shown, which a loaded phone may do a while after drawing it); on any other
 * load, whose spinner the paint timing may not count, two animation frames (the second comes after
 * the first was drawn). A hidden tab paints nothing and runs no animation frames: there the app
 * starts at once.
 */
export function startAppAfterFirstPaint(): void {
  let started = false
  const start = () => {
    if (started) return
    started = true
    // Any page but the sign-in page needs the whole stylesheet before it shows: fetched first.
    if (document.documentElement.getAttribute(LOAD_ATTRIBUTE) !== 'sign-in') requestAppStylesheet()
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
  const afterPaint = () => {
    const signIn = document.documentElement.getAttribute(LOAD_ATTRIBUTE) === 'sign-in'
    if (!signIn || performance.getEntriesByType('paint').length > 0) return start()
    try {
      new PerformanceObserver((_, observer) => {
        observer.disconnect()
        start()
      }).observe({ type: 'paint' })
    } catch {
      return start()
    }
    setTimeout(start, PAINT_WAIT_LIMIT_MS)
  }
  const afterParsing = () => {
    if (document.visibilityState === 'hidden') start()
    else requestAnimationFrame(() => requestAnimationFrame(afterPaint))
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', afterParsing, { once: true })
  } else {
    afterParsing()
  }
}
