import { tokenHash } from '../../accounts/tokens'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import { apiError } from '../../http/errors'
import type { RequestOrigin } from '../../http/request-origin'

const invalidLink = () => apiError(400, 'invalid_or_expired_email_link')

/** A unique-constraint violation on either engine: the address was taken in the meantime. */
const isUniqueViolation = (error: unknown) =>
  /unique|duplicate key/i.test(error instanceof Error ? error.message : String(error))

/**
 * The new address's link: the account's e-mail becomes it, in one transaction that uses the
 * link up (one conditional UPDATE: two clicks cannot both confirm), voids the reset links mailed
 * to the old address, and audits the change. An address another account took since the request
 * leaves everything as it was (the link's answer is the same as an expired one's).
 */
export async function confirmEmailChange(
  { db, now }: Pick<ApiContext, 'db' | 'now'>,
  token: string,
  origin: RequestOrigin,
): Promise<string> {
  const at = now()
  try {
    return await db.transaction().execute(async (trx) => {
      const change = await trx
        .updateTable('email_changes')
        .set({ ended_at: at, outcome: 'confirmed' })
        .where('confirm_token_hash', '=', tokenHash(token))
        .where('ended_at', 'is', null)
        .where('expires_at', '>', at)
        .returning(['account_id', 'new_email'])
        .executeTakeFirst()
      if (!change) throw invalidLink()
      const before = await trx
        .selectFrom('accounts')
        .select(['id', 'name', 'email'])
        .where('id', '=', change.account_id)
        .executeTakeFirstOrThrow()
      await trx
        .updateTable('accounts')
        .set({ email: change.new_email, updated_at: at })
        .where('id', '=', change.account_id)
        .execute()
      await trx.deleteFrom('password_resets').where('account_id', '=', change.account_id).execute()
      await recordAudit(trx, {
        type: 'email_changed',
        actor: party({ ...before, email: change.new_email }),
        account: party({ ...before, email: change.new_email }),
        origin,
        details: { from: before.email, to: change.new_email },
        at,
      })
      return change.new_email
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidLink()
    throw error
  }
}

/** The old address's link: the waiting change ends, nothing else changes; audited. */
export async function cancelEmailChange(
  { db, now }: Pick<ApiContext, 'db' | 'now'>,
  token: string,
  origin: RequestOrigin,
): Promise<void> {
  const at = now()
  await db.transaction().execute(async (trx) => {
    const change = await trx
      .updateTable('email_changes')
      .set({ ended_at: at, outcome: 'cancelled' })
      .where('cancel_token_hash', '=', tokenHash(token))
      .where('ended_at', 'is', null)
      .where('expires_at', '>', at)
      .returning(['account_id'])
      .executeTakeFirst()
    if (!change) throw invalidLink()
    const account = await trx
      .selectFrom('accounts')
      .select(['id', 'name', 'email'])
      .where('id', '=', change.account_id)
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      type: 'email_change_cancelled',
      actor: party(account),
      account: party(account),
      origin,
      at,
    })
  })
}
