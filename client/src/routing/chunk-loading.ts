import { lazy, type ComponentType } from 'react'
import { AppStylesheetError, appStylesheetReady } from '../prerender/app-stylesheet'

/**
 * Loading a page or screen chunk. When the import fails (a new deployment replaced the hashed
 * files, or the network dropped), a cancelable `preloadError` event is raised on window, carrying
 * the error (the convention Vite made familiar). A handler that calls preventDefault() takes over,
 * and the route waits for it; when nobody does, the error is rethrown to the route's error screen.
 */
export const PRELOAD_ERROR_EVENT = 'preloadError'

export class PreloadErrorEvent extends Event {
  constructor(readonly error: unknown) {
    super(PRELOAD_ERROR_EVENT, { cancelable: true })
  }

  /** Vite's name for the same field. */
  get payload(): unknown {
    return this.error
  }
}

declare global {
  interface WindowEventMap {
    [PRELOAD_ERROR_EVENT]: PreloadErrorEvent
  }
}

export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const event = new PreloadErrorEvent(error)
    window.dispatchEvent(event)
    if (!event.defaultPrevented) throw error
    // A handler took over (the panel's own reloads the page): keep the spinner until it does.
    return new Promise<never>(() => {})
  }
}

type PageModule = { default: ComponentType }

/**
 * A page or screen as a lazily loaded component (React.lazy) over loadChunk. A chunk that failed
 * (and that no preloadError handler took over) makes the component throw as it renders, and the
 * nearest error boundary (route-error-boundary.tsx) shows the error screen.
 *
 * `preload()` fetches the chunk ahead of the first render; once it is there, that render does not
 * suspend (React.lazy takes a thenable that answers at once): hydrating the prerendered sign-in
 * page needs its first render to be the page, not the spinner (mount.tsx).
 *
 * A page also waits for the app's whole stylesheet, fetched alongside its chunk, when index.html
 * carries only the sign-in page's CSS (prerender/app-stylesheet.ts). Only the login page, which
 * that CSS covers, is declared without it (`{ wholeStylesheet: false }`).
 */
export function lazyPage(
  load: () => Promise<PageModule>,
  { wholeStylesheet = true }: { wholeStylesheet?: boolean } = {},
) {
  let loaded: PageModule | undefined
  let loading: Promise<PageModule> | undefined
  const loadWithStyles = wholeStylesheet
    ? () => Promise.all([load(), appStylesheetReady()]).then(([module]) => module)
    : load
  const preload = () => (loading ??= loadChunk(loadWithStyles).then((module) => (loaded = module)))
  const Page = lazy(() => {
    if (!loaded) return preload()
    const module = loaded
    // Resolved before React.lazy checks, so it renders the page in this very render.
    return {
      then: (resolve: (value: PageModule) => void) => resolve(module),
    } as Promise<PageModule>
  })
  return Object.assign(Page, { preload })
}

/** Whether an error is a chunk (or the stylesheet pages wait for) that could not be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof AppStylesheetError) return true
  return (
    error instanceof TypeError &&
    /dynamically imported module|module script failed|error loading dynamically imported/i.test(
      error.message,
    )
  )
}
