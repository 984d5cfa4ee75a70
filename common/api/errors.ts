import { Type, type Static } from 'typebox'

/** The one error shape of every answer that is not a success: `{"error":{"code","message"}}`. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'stable, machine-readable (e.g. invalid_credentials)' }),
        message: Type.String({ description: 'for people, in pt-BR' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)
export type ErrorBody = Static<typeof ErrorBodySchema>

/** An answer without a body (204, and 202 where nothing more is said). */
export const NoContentSchema = Type.Null({ description: 'no body' })

/** The error answers a route may give, for its response schema: `{ 400: ErrorBody, … }`. */
export function errorAnswers<const Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof ErrorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema])) as Record<
    Status,
    typeof ErrorBodySchema
  >
}
