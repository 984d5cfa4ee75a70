import { lazy, type ComponentType } from 'react'

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

/**
 * A page or screen as a lazily loaded component (React.lazy) over loadChunk. A chunk that failed
 * (and that no preloadError handler took over) makes the component throw as it renders, and the
 * nearest error boundary (route-error-boundary.tsx) shows the error screen.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(() => loadChunk(load))
}

/** Whether an error is a chunk that could not be fetched, as browsers word it. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /dynamically imported module|module script failed|error loading dynamically imported/i.test(
      error.message,
    )
  )
}
