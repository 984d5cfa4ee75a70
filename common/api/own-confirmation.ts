import { Type } from 'typebox'

/**
 * What confirms a change a signed-in person makes to their own account when the session alone
 * is not enough (issue 30: "with the current password or a second factor"): exactly one of the
 * current password or a code of the authenticator app. A stolen session knows neither.
 *
 * A body that takes it is a union of two closed objects, one with `password` and one with
 * `code`: a body with both, or neither, matches no branch and is a 400 `invalid_input`
 * (common/api/email-change.ts, common/api/account-deletion.ts). Passkeys do not confirm here
 * (docs/personal-data.md).
 */

export const CurrentPasswordField = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: 'the current password (400 wrong_password, counted like a failed sign-in)',
})

export const SecondFactorCodeField = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'instead of the password: a current code of the authenticator app (6 digits; each used once) or one of the recovery codes (then used up); 400 wrong_code, counted like a wrong password',
})
