import type { MfaMethod } from '../../common/api/auth'
import type { MfaStatus } from '../../common/api/me'
import type { Db } from '../db/database'
import {
  looksLikeRecoveryCode,
  newRecoveryCode,
  RECOVERY_CODE_COUNT,
  recoveryCodeHash,
} from './recovery-codes'
import { looksLikeTotpCode, newTotpSecret, totpStep } from './totp'

/**
 * An account's second factors in the database: the TOTP secret (pending until a code confirms
 * it), its recovery codes, and which methods a sign-in may finish with. Passkeys are in
 * passkey-store.ts. Every "use" here is one conditional write, so two requests with the same code
 * cannot both succeed.
 */

export async function hasConfirmedTotp(db: Db, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('totp_factors')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether the account has any second factor: a confirmed authenticator app or a passkey. */
export async function hasSecondFactor(db: Db, accountId: string): Promise<boolean> {
  if (await hasConfirmedTotp(db, accountId)) return true
  const passkey = await db
    .selectFrom('passkeys')
    .select('account_id')
    .where('account_id', '=', accountId)
    .limit(1)
    .executeTakeFirst()
  return passkey !== undefined
}

async function count(db: Db, table: 'recovery_codes' | 'passkeys', accountId: string) {
  let query = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
  if (table === 'recovery_codes') query = query.where('used_at', 'is', null)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

export async function mfaStatus(db: Db, accountId: string): Promise<MfaStatus> {
  const totp = await hasConfirmedTotp(db, accountId)
  return {
    totp,
    recoveryCodesLeft: totp ? await count(db, 'recovery_codes', accountId) : 0,
    passkeys: await count(db, 'passkeys', accountId),
  }
}

/** The methods a sign-in of this account may finish with; empty: the password is enough. */
export async function mfaMethods(db: Db, accountId: string): Promise<MfaMethod[]> {
  const status = await mfaStatus(db, accountId)
  const methods: MfaMethod[] = []
  if (status.totp) methods.push('totp', 'recovery_code')
  if (status.passkeys > 0) methods.push('passkey')
  return methods
}

/** A new secret, replacing any pending one; null when TOTP is on already (turn it off first). */
export async function startTotp(db: Db, accountId: string, now: Date): Promise<string | null> {
  if (await hasConfirmedTotp(db, accountId)) return null
  const secret = newTotpSecret()
  await db
    .insertInto('totp_factors')
    .values({ account_id: accountId, secret, created_at: now, confirmed_at: null, last_step: null })
    .onConflict((conflict) =>
      conflict.column('account_id').doUpdateSet({ secret, created_at: now, last_step: null }),
    )
    .execute()
  return secret
}

/** Replaces the account's recovery codes with 10 new ones (returned once, stored hashed). */
export async function newRecoveryCodes(db: Db, accountId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute()
  await db
    .insertInto('recovery_codes')
    .values(
      codes.map((code) => ({
        code_hash: recoveryCodeHash(code),
        account_id: accountId,
        created_at: now,
        used_at: null,
      })),
    )
    .execute()
  return codes
}

/**
 * Uses a TOTP code: right for now (±1 step) and for a later step than the last one accepted,
 * so a code seen once (over a shoulder, in a proxy's log) is refused the second time.
 * `pending`: the code confirms a pending secret instead of an active one.
 */
export async function useTotpCode(
  db: Db,
  accountId: string,
  code: string,
  now: Date,
  pending = false,
): Promise<boolean> {
  const factor = await db
    .selectFrom('totp_factors')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('confirmed_at', pending ? 'is' : 'is not', null)
    .executeTakeFirst()
  if (!factor) return false
  const step = totpStep(factor.secret, code, now)
  if (step === null) return false
  const used = await db
    .updateTable('totp_factors')
    .set({ last_step: step, ...(pending ? { confirmed_at: now } : {}) })
    .where('account_id', '=', accountId)
    .where('secret', '=', factor.secret)
    .where((where) => where.or([where('last_step', 'is', null), where('last_step', '<', step)]))
    .executeTakeFirst()
  return Number(used.numUpdatedRows) === 1
}

/** Uses a recovery code (once); the number left, or null when it is not one of the account's. */
export async function useRecoveryCode(
  db: Db,
  accountId: string,
  code: string,
  now: Date,
): Promise<number | null> {
  if (!looksLikeRecoveryCode(code)) return null
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', recoveryCodeHash(code))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  if (Number(used.numUpdatedRows) !== 1) return null
  return count(db, 'recovery_codes', accountId)
}

/**
 * Uses a code typed for the authenticator app: six digits are a TOTP code (useTotpCode: never
 * the same step twice), anything else one of the recovery codes (used up). Which it was taken
 * for, whether it was right, and after a right recovery code how many are left. The sign-in's
 * second step (second-factor-code.ts) and a confirmation in Minha conta (own-confirmation.ts)
 * both use codes this way, so a code used in one is used up for the other.
 */
export async function useAuthenticatorCode(
  db: Db,
  accountId: string,
  code: string,
  now: Date,
): Promise<{
  method: Extract<MfaMethod, 'totp' | 'recovery_code'>
  right: boolean
  recoveryCodesLeft: number | null
}> {
  const typed = code.trim()
  if (looksLikeTotpCode(typed)) {
    return {
      method: 'totp',
      right: await useTotpCode(db, accountId, typed, now),
      recoveryCodesLeft: null,
    }
  }
  const left = await useRecoveryCode(db, accountId, typed, now)
  return { method: 'recovery_code', right: left !== null, recoveryCodesLeft: left }
}

/** Turns TOTP off: the secret and its recovery codes go. Whether there was one. */
export async function removeTotp(db: Db, accountId: string): Promise<boolean> {
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute()
  const removed = await db
    .deleteFrom('totp_factors')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return Number(removed.numDeletedRows) > 0
}

/** Every second factor of an account (an admin's help for a lost phone): what was removed. */
export async function removeSecondFactors(
  db: Db,
  accountId: string,
): Promise<{ totp: boolean; passkeys: number }> {
  const hadTotp = await hasConfirmedTotp(db, accountId)
  await removeTotp(db, accountId)
  const passkeys = await db
    .deleteFrom('passkeys')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return { totp: hadTotp, passkeys: Number(passkeys.numDeletedRows) }
}
