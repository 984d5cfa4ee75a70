import type { MouseEvent } from 'react'
import { messages } from '../words/messages'
import { isChunkLoadError } from './chunk-loading'

const MAX_DETAIL_LENGTH = 300

/** The status or message of whatever a route threw, as text (React escapes it when shown). */
export function describeRouteError(error: unknown): string {
  let detail: string
  if (error instanceof Error) detail = error.message
  else if (typeof error === 'string') detail = error
  else detail = String(error)
  return detail.length > MAX_DETAIL_LENGTH ? `${detail.slice(0, MAX_DETAIL_LENGTH)}…` : detail
}

function goHomeAfresh(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault()
  window.location.hash = '#/'
  window.location.reload()
}

function ErrorContent({ error }: { error: unknown }) {
  return (
    <div className="painel-error text-center">
      <h1 className="h3">{messages.routeError.title}</h1>
      <p className="lead">
        {isChunkLoadError(error) ? messages.routeError.chunkText : messages.routeError.text}
      </p>
      <p className="text-body-secondary">
        {messages.routeError.details}:{' '}
        <code className="painel-error-detail">{describeRouteError(error)}</code>
      </p>
      <div className="d-flex gap-2 justify-content-center flex-wrap">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {messages.routeError.reload}
        </button>
        {/*
          A full load of the start, not a route change: the browser keeps a failed chunk import
          failed for the life of the document, so only a new document can fetch it again.
        */}
        <a className="btn btn-link" href="#/" onClick={goHomeAfresh}>
          {messages.routeError.home}
        </a>
      </div>
    </div>
  )
}

/**
 * Replaces the router's default error screen ("Unexpected Application Error!"). It is part of
 * the entry chunk, so it shows even when no other chunk can be fetched.
 */
export function RouteErrorScreen({ error }: { error: unknown }) {
  return (
    <main className="painel-public min-vh-100 d-flex align-items-center justify-content-center p-3">
      <ErrorContent error={error} />
    </main>
  )
}

/** The same, inside the layout's content area, for a screen that failed: the menu stays usable. */
export function ScreenErrorScreen({ error }: { error: unknown }) {
  return (
    <div className="py-4">
      <ErrorContent error={error} />
    </div>
  )
}
