import type { FastifyReply } from 'fastify'

/**
 * Answers without a body (202, 204). Through the untyped reply: the type provider would
 * want the schema's `null` as a payload, and a 202 with `null` would send the text "null".
 */
export function answerWithoutBody(reply: FastifyReply, status: 202 | 204) {
  return reply.code(status).send()
}
