import { ENTRY_ATTRIBUTE } from './prerender-markup'

/**
 * Starts the app (the entry index.html names with ENTRY_ATTRIBUTE) once the first frame has been
 * painted. With the sign-in page prerendered, the HTML and the stylesheet are all that first
 * paint needs; but a module script that has already arrived (a fast link, a warm cache) runs
 * before the browser paints, and evaluating React and hydrating take hundreds of milliseconds
 * of a phone's CPU, all spent with nothing on the screen. The scripts are still fetched from the
 * start (modulepreload), so nothing waits for the network; only their evaluation waits, by two
 * animation frames (the second comes after the first was painted).
 *
 * A hidden tab paints nothing and runs no animation frames: there the app starts at once.
 */
export function startAppAfterFirstPaint(): void {
  let started = false
  const start = () => {
    if (started) return
    started = true
    const entry = document.querySelector<HTMLLinkElement>(`link[${ENTRY_ATTRIBUTE}]`)
    if (!entry) return
    const script = document.createElement('script')
    script.type = 'module'
    script.src = entry.href
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
