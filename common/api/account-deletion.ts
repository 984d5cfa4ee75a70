import { Type, type Static } from 'typebox'
import { CurrentPasswordField, SecondFactorCodeField } from './own-confirmation'
import { REFUSAL_REASON_MAX_LENGTH } from './staff'

/**
 * Deletion and anonymisation (issue 30; LGPD art. 18, IV and VI):
 *
 * | call                                          | answers                                      |
 * | --------------------------------------------- | -------------------------------------------- |
 * | POST /api/me/deletion-request {password} or {code} | 202 (one open request per person); 400 wrong_password / wrong_code, invalid_input with both or neither; 429 |
 * | GET /api/staff/deletion-requests (admins)     | 200 DeletionRequestList: the open requests, oldest first |
 * | POST /api/staff/:id/anonymise (admins)        | 204; 400 own_account; 404; 409 last_admin    |
 * | POST /api/staff/:id/deletion-request/refuse {reason} (admins) | 204: the open request closed, the person told by mail with the reason; 400 missing_reason, own_account; 404 deletion_request_not_found |
 *
 * The person confirms the request with their password or, instead, a code of their
 * authenticator app or a recovery code (common/api/own-confirmation.ts): someone without a
 * password of their own who has the app can still exercise the right. Someone with neither asks
 * an admin (docs/personal-data.md).
 */

const closed = { additionalProperties: false } as const

/** Exactly one of the password or a code (common/api/own-confirmation.ts). */
export const DeletionRequestBodySchema = Type.Union([
  Type.Object({ password: CurrentPasswordField }, closed),
  Type.Object({ code: SecondFactorCodeField }, closed),
])
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
