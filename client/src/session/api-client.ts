import { messages } from '../words/messages'
import { noteAuthenticatedCall } from './last-call'
import { clearToken, readToken } from './token'

/**
 * Calls to the panel's API (`/api/...`, relative to the page, so a panel served under a sub-path
 * works too). Errors arrive as `{"error":{"code","message"}}` with the message in pt-BR, and are
 * thrown as ApiError carrying that message, to be shown as-is.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** From Retry-After on a 429: how long to wait before trying again. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * Dispatched on window when a call answers 403 mfa_setup_required (MFA_REQUIRED: a second factor
 * must be set up first): the layout asks who the person is again and takes them to the setup.
 */
export const MFA_SETUP_EVENT = 'painel:mfa-setup'

/** What to tell the person about a failed call: the API's own pt-BR message when there is one. */
export function errorMessage(error: unknown, otherwise = String(error)): string {
  return error instanceof ApiError ? error.message : otherwise
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  body?: unknown
  signal?: AbortSignal
  /**
   * Asked by the page on its own (the sidebar's minute poll), not by the person: not use of the
   * session. Sent with `X-Painel-Background: 1` so the server need not slide the idle end for it,
   * and not counted by the idle timer here.
   */
  background?: boolean
}

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get('retry-after'))
  return Number.isFinite(value) && value > 0 ? value : null
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: unknown = null
  try {
    body = await response.json()
  } catch {
    // Not JSON (a proxy's HTML error page, say): fall through to the generic message.
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error
  if (
    typeof error?.code === 'string' &&
    typeof error.message === 'string' &&
    error.message !== ''
  ) {
    return new ApiError(response.status, error.code, error.message, retryAfter(response))
  }
  return new ApiError(
    response.status,
    'unexpected_response',
    messages.api.unexpected(response.status),
  )
}

/**
 * The error of an answer that is not a success. A 401 to a call made with a session means the
 * session is over (expired, ended elsewhere, account disabled, password changed): forget the
 * token, saying why, and the access guard takes the user to the login page, remembering where
 * they were. Unless this tab or another one has signed in again meanwhile: a late answer for the
 * old token must not end the new session. A 403 mfa_setup_required is told to the layout.
 */
async function failure(response: Response, token: string | null): Promise<ApiError> {
  const error = await errorFrom(response)
  if (response.status === 401 && token !== null && readToken() === token) {
    clearToken({ endedBy: { code: error.code, message: error.message } })
  }
  if (error.code === 'mfa_setup_required') window.dispatchEvent(new Event(MFA_SETUP_EVENT))
  return error
}

/**
 * One call of the API with the session's token: what goes wrong on the way is an ApiError (a
 * network failure, or the answer's own error, a 401 ending the session: see failure), unless the
 * caller aborted it. The answer, a success, is the caller's to read.
 */
async function send(
  path: string,
  { method = 'GET', body, signal, background = false }: RequestOptions,
  accept: string,
): Promise<{ response: Response; token: string | null }> {
  const token = readToken()
  const headers: Record<string, string> = { accept }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token !== null) headers.authorization = `Bearer ${token}`
  if (background) headers['x-painel-background'] = '1'
  let response: Response
  try {
    response = await fetch(`api/${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: signal ?? null,
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ApiError(0, 'network_error', messages.api.network)
  }
  if (!response.ok) throw await failure(response, token)
  return { response, token }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { response, token } = await send(path, options, 'application/json')
  if (token !== null && !options.background) noteAuthenticatedCall()
  if (response.status === 204 || response.status === 202) {
    return (
      response.headers.get('content-type')?.includes('json') ? await response.json() : undefined
    ) as T
  }
  return (await response.json()) as T
}

/** A file from the API (the audit CSV): fetched with the session, handed over as a Blob. */
export async function apiDownload(path: string): Promise<Blob> {
  return (await send(path, {}, '*/*')).response.blob()
}

/**
 * A stream from the API (the session's events): opened with the session, marked as the panel's
 * own work (no use of the session), its body handed over as it comes. A 401 ends the session as
 * any call's does.
 */
export async function apiStream(
  path: string,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const { response } = await send(path, { signal, background: true }, 'text/event-stream')
  if (response.body === null) throw new ApiError(0, 'network_error', messages.api.network)
  return response.body
}
