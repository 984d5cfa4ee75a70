import type { FastifyRequest } from 'fastify'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../common/text-rules'
import { HttpError } from './errors'
import { apiMessages } from './messages'

/**
 * How deep a request's values may nest (the body, query and path sit at level 1). No route's
 * schema goes more than a few levels down (a passkey's response is the deepest, at 4); a 16 KB
 * body can otherwise nest thousands of levels, and anything that walks it by recursion (a
 * validator, a serialiser) would run out of stack and answer 500.
 */
export const MAX_INPUT_DEPTH = 64

/** Thrown by strings() on a value nested deeper than MAX_INPUT_DEPTH. */
class TooDeep extends Error {}

/**
 * Every string anywhere in a value (a JSON body), keys included. With an explicit stack, not
 * recursion: the depth is checked here, so the walk itself must not be what overflows.
 */
function* strings(value: unknown): Generator<string> {
  const stack: [unknown, number][] = [[value, 0]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next
    if (typeof item === 'string') {
      yield item
      continue
    }
    if (item === null || typeof item !== 'object') continue
    if (depth >= MAX_INPUT_DEPTH) throw new TooDeep()
    if (Array.isArray(item)) {
      for (const part of item as unknown[]) stack.push([part, depth + 1])
    } else {
      for (const [key, part] of Object.entries(item)) {
        yield key
        stack.push([part, depth + 1])
      }
    }
  }
}

/**
 * A preValidation hook for the API: a body, query or path holding NUL or another control
 * character (common/text-rules.ts) is a 400 in the standard shape before any route or database
 * sees it. PostgreSQL would refuse NUL with an error, and the client would get a 500. A value
 * nested deeper than MAX_INPUT_DEPTH is a 400 too, before the schema's validator sees it.
 */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  try {
    for (const text of strings([request.body, request.query, request.params])) {
      if (!isStorableText(text)) throw new HttpError(400, 'invalid_input', UNSTORABLE_TEXT_MESSAGE)
    }
  } catch (error) {
    if (error instanceof TooDeep)
      throw new HttpError(400, 'invalid_input', apiMessages.nested_too_deep)
    throw error
  }
}
