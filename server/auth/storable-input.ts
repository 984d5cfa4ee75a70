import type { FastifyRequest } from 'fastify'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../common/text-rules'
import { HttpError } from '../http/errors'

/** Every string anywhere in a value (a JSON body), depth-first. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value
  else if (Array.isArray(value)) for (const item of value) yield* strings(item)
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      yield key
      yield* strings(item)
    }
  }
}

/**
 * A preValidation hook for the API: a body, query or path holding NUL or another control
 * character (common/text-rules.ts) is a 400 in the standard shape before any route or database
 * sees it. PostgreSQL would refuse NUL with an error, and the client would get a 500.
 */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  for (const text of strings([request.body, request.query, request.params])) {
    if (!isStorableText(text)) throw new HttpError(400, 'invalid_input', UNSTORABLE_TEXT_MESSAGE)
  }
}
