import { Type, type Static } from 'typebox'
import { REFUSAL_REASON_MAX_LENGTH } from './staff'

/**
 * Deletion and anonymisation (issue 30; LGPD art. 18, IV and VI):
 *
 * | call                                          | answers                                      |
 * | --------------------------------------------- | -------------------------------------------- |
 * | POST /api/me/deletion-request {password}      | 202 (one open request per person); 400 wrong_password; 429 |
 * | GET /api/staff/deletion-requests (admins)     | 200 DeletionRequestList: the open requests, oldest first |
 * | POST /api/staff/:id/anonymise (admins)        | 204; 400 own_account; 404; 409 last_admin    |
 * | POST /api/staff/:id/deletion-request/refuse {reason} (admins) | 204: the open request closed, the person told by mail with the reason; 400 missing_reason, own_account; 404 deletion_request_not_found |
 */

const closed = { additionalProperties: false } as const

export const DeletionRequestBodySchema = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 1024 }) },
  closed,
)
export type DeletionRequestBody = Static<typeof DeletionRequestBodySchema>

export const DeletionRequestListSchema = Type.Object(
  {
    requests: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          account: Type.Object(
            { id: Type.String(), name: Type.String(), email: Type.String() },
            closed,
          ),
          requestedAt: Type.String({ format: 'date-time' }),
        },
        closed,
      ),
    ),
  },
  closed,
)
export type DeletionRequestList = Static<typeof DeletionRequestListSchema>

/** Refusing a request: the reason is required, and quoted in the mail to the person. */
export const DeletionRefusalBodySchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: REFUSAL_REASON_MAX_LENGTH }) },
  closed,
)
export type DeletionRefusalBody = Static<typeof DeletionRefusalBodySchema>
