import { APP_STYLESHEET_META } from './prerender-markup'

/**
 * The app's whole stylesheet, when index.html carries only the sign-in page's CSS inline
 * (scripts/build/critical-css.ts). The sign-in page, everything it can show included (an error,
 * the second step, a passkey prompt), needs nothing else, so a cold #/login never downloads it.
 * Every other page waits for it before it renders (chunk-loading.ts): rendered with the inline
 * CSS alone it would be half-styled.
 *
 * The <link> is made by script, so the browser does not hold the first paint for it, and it
 * records how its load ended on itself: whoever asks later (the boot script requests it early on
 * a load that is not a sign-in; the app asks again) reads the outcome instead of waiting for an
 * event that has already fired.
 */
const STATE_ATTRIBUTE = 'data-painel-stylesheet'
type LoadState = 'loading' | 'loaded' | 'failed'

function stylesheetHref(): string | null {
  return (
    document.querySelector<HTMLMetaElement>(`meta[name="${APP_STYLESHEET_META}"]`)?.content || null
  )
}

/** Asks for the stylesheet (once per page); null when index.html links it itself. */
export function requestAppStylesheet(): HTMLLinkElement | null {
  const href = stylesheetHref()
  if (!href) return null
  const existing = document.querySelector<HTMLLinkElement>(`link[${STATE_ATTRIBUTE}]`)
  if (existing) return existing
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = href
  link.setAttribute(STATE_ATTRIBUTE, 'loading' satisfies LoadState)
  link.addEventListener('load', () => link.setAttribute(STATE_ATTRIBUTE, 'loaded'), { once: true })
  link.addEventListener('error', () => link.setAttribute(STATE_ATTRIBUTE, 'failed'), {
    once: true,
  })
  document.head.append(link)
  return link
}

/** The whole stylesheet could not be fetched: to the user, a part of the panel that failed to load. */
export class AppStylesheetError extends Error {
  constructor(href: string) {
    super(`the stylesheet ${href} could not be loaded`)
    this.name = 'AppStylesheetError'
  }
}

/**
 * Resolves once the whole stylesheet applies (at once when the page links it itself); rejects
 * when it could not be fetched, like a chunk that could not (a new deployment replaced it).
 */
export function appStylesheetReady(): Promise<void> {
  const link = requestAppStylesheet()
  if (!link) return Promise.resolve()
  const failed = () => new AppStylesheetError(link.href)
  const state = link.getAttribute(STATE_ATTRIBUTE) as LoadState
  if (state === 'loaded') return Promise.resolve()
  if (state === 'failed') return Promise.reject(failed())
  return new Promise((resolve, reject) => {
    link.addEventListener('load', () => resolve(), { once: true })
    link.addEventListener('error', () => reject(failed()), { once: true })
  })
}
