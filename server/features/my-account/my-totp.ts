import type { RecoveryCodes, TotpSetup } from '../../../common/api/me'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { ApiContext } from '../../api/api-context'
import type { Origin } from '../../sign-in-steps/check-origin'
import {
  hasConfirmedTotp,
  newRecoveryCodes,
  removeTotp,
  startTotp,
  useTotpCode,
} from '../../accounts/second-factors'
import { requireOwnPassword } from '../../sign-in-steps/password-check'
import { otpauthUrl } from '../../accounts/totp'
import type { Account } from '../../db/schema'
import { apiError } from '../../http/errors'

/** "Minha conta" → the authenticator app: turn it on (with a code), off (with the password). */

export async function beginTotp(context: ApiContext, account: Account): Promise<TotpSetup> {
  const secret = await startTotp(context.db, account.id, context.now())
  if (secret === null) throw apiError(409, 'mfa_already_on', 'mfa_already_on')
  return { secret, otpauthUrl: otpauthUrl(secret, account.email) }
}

export async function confirmTotp(
  context: ApiContext,
  account: Account,
  code: string,
  origin: Origin,
): Promise<RecoveryCodes> {
  const now = context.now()
  const pending = await context.db
    .selectFrom('totp_factors')
    .select('account_id')
    .where('account_id', '=', account.id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst()
  if (!pending) {
    throw (await hasConfirmedTotp(context.db, account.id))
      ? apiError(409, 'mfa_already_on')
      : apiError(400, 'no_pending_totp')
  }
  return context.db.transaction().execute(async (trx) => {
    if (!(await useTotpCode(trx, account.id, code.trim(), now, true))) {
      throw apiError(400, 'invalid_code')
    }
    const recoveryCodes = await newRecoveryCodes(trx, account.id, now)
    await recordAccountEvent(trx, 'mfa_enabled', account.id, origin.audit, { method: 'totp' })
    return { recoveryCodes }
  })
}

export async function turnTotpOff(
  context: ApiContext,
  account: Account,
  password: string,
  origin: Origin,
): Promise<void> {
  await requireOwnPassword(context, account, password, origin)
  await context.db.transaction().execute(async (trx) => {
    const wasOn = await hasConfirmedTotp(trx, account.id)
    await removeTotp(trx, account.id)
    if (wasOn) {
      await recordAccountEvent(trx, 'mfa_disabled', account.id, origin.audit, {
        method: 'totp',
        by: 'owner',
      })
    }
  })
}

export async function regenerateRecoveryCodes(
  context: ApiContext,
  account: Account,
  password: string,
  origin: Origin,
): Promise<RecoveryCodes> {
  await requireOwnPassword(context, account, password, origin)
  return context.db.transaction().execute(async (trx) => {
    if (!(await hasConfirmedTotp(trx, account.id))) throw apiError(409, 'mfa_not_on')
    const recoveryCodes = await newRecoveryCodes(trx, account.id, context.now())
    await recordAccountEvent(trx, 'recovery_codes_regenerated', account.id, origin.audit)
    return { recoveryCodes }
  })
}
