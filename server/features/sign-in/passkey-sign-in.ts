import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { AuthenticationCredential, RequestOptions } from '../../../common/api/webauthn'
import { recordAccountEvent } from '../../audit-log/account-events'
import { findAccountById } from '../../accounts/accounts'
import type { ApiContext } from '../../api/api-context'
import type { Origin } from '../../sign-in-steps/check-origin'
import { completeSignIn, type SignInResult } from '../../sign-in-steps/complete-sign-in'
import {
  finishMfaChallenge,
  peekMfaChallenge,
  tryMfaChallenge,
} from '../../accounts/mfa-challenges'
import { limitKeysFor } from '../../sign-in-steps/password-check'
import { limitKeys } from '../../accounts/sign-in-limits'
import { tokenHash } from '../../accounts/tokens'
import type { Account } from '../../db/schema'
import { challengeIn, takeChallenge, keepChallenge } from '../../accounts/passkey-challenges'
import {
  counterOf,
  findPasskeyByCredential,
  listPasskeys,
  recordPasskeyUse,
  transportsOf,
  type StoredPasskey,
} from '../../accounts/passkey-store'
import {
  CEREMONY_TIMEOUT_MS,
  relyingParty,
  userHandleOf,
  webauthnLibrary,
} from '../../accounts/relying-party'

/**
 * Signing in with a passkey (common/api/auth.ts: POST /passkey/options, POST /passkey), in
 * two ways:
 * - alone, from the login page without an e-mail: the browser offers this site's discoverable
 *   passkeys, and the one chosen names the account. The device must verify the person (PIN,
 *   biometrics), so the passkey is two factors by itself.
 * - as the second factor of a login whose password was right (`challenge`, the login's
 *   `mfa.challenge`): only that account's passkeys, and each try counts against the challenge.
 * Either way a try counts against the same sign-in limits as a password, and ends like one.
 */

export type PasskeySignInResult = SignInResult | { outcome: 'invalid_passkey' }

/** The request options for the browser; `challenge_expired` when a login's challenge is not usable. */
export async function passkeySignInOptions(
  context: ApiContext,
  mfaChallenge: string | undefined,
): Promise<RequestOptions | 'challenge_expired'> {
  const now = context.now()
  const rp = relyingParty(context.config.publicUrl)
  const { generateAuthenticationOptions } = await webauthnLibrary()
  if (mfaChallenge === undefined) {
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: CEREMONY_TIMEOUT_MS,
      userVerification: 'required',
    })
    await keepChallenge(context.db, options.challenge, { purpose: 'sign_in' }, now)
    return options as RequestOptions
  }
  const accountId = await peekMfaChallenge(context.db, mfaChallenge, now)
  if (accountId === undefined) return 'challenge_expired'
  const passkeys = await listPasskeys(context.db, accountId)
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TIMEOUT_MS,
    // The password was the first factor: the device need not verify the person again.
    userVerification: 'preferred',
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credential_id,
      transports: transportsOf(passkey),
    })),
  })
  await keepChallenge(
    context.db,
    options.challenge,
    { purpose: 'sign_in', accountId, mfaChallengeHash: tokenHash(mfaChallenge) },
    now,
  )
  return options as RequestOptions
}

/** Whether the signature is the passkey's, over a challenge this server gave for this use. */
async function signatureHolds(
  context: ApiContext,
  response: AuthenticationCredential,
  passkey: StoredPasskey,
  mfaChallenge: string | undefined,
  now: Date,
): Promise<number | undefined> {
  const handle = response.response.userHandle
  if (
    handle !== undefined &&
    handle !== Buffer.from(userHandleOf(passkey.account_id)).toString('base64url')
  ) {
    return undefined
  }
  const challenge = challengeIn(response.response.clientDataJSON)
  const binding =
    mfaChallenge === undefined
      ? ({ purpose: 'sign_in' } as const)
      : ({
          purpose: 'sign_in',
          accountId: passkey.account_id,
          mfaChallengeHash: tokenHash(mfaChallenge),
        } as const)
  if (challenge === undefined || !(await takeChallenge(context.db, challenge, binding, now))) {
    return undefined
  }
  const rp = relyingParty(context.config.publicUrl)
  const { verifyAuthenticationResponse } = await webauthnLibrary()
  try {
    const verified = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: counterOf(passkey),
        transports: transportsOf(passkey),
      },
      requireUserVerification: mfaChallenge === undefined,
    })
    return verified.verified ? verified.authenticationInfo.newCounter : undefined
  } catch {
    // Thrown for any answer the library cannot accept, a lower counter (a cloned
    // authenticator) included.
    return undefined
  }
}

export async function signInWithPasskey(
  context: ApiContext,
  response: AuthenticationCredential,
  mfaChallenge: string | undefined,
  origin: Origin,
): Promise<PasskeySignInResult> {
  const { db } = context
  const now = context.now()
  let expectedAccount: string | undefined
  if (mfaChallenge !== undefined) {
    expectedAccount = await tryMfaChallenge(db, mfaChallenge, now)
    if (expectedAccount === undefined) return { outcome: 'challenge_expired' }
  }
  const found = await findPasskeyByCredential(db, response.id)
  const passkey =
    found && (expectedAccount === undefined || found.account_id === expectedAccount)
      ? found
      : undefined
  const account: Account | undefined = passkey && (await findAccountById(db, passkey.account_id))
  // The account the try is about: the passkey's, or the login's when the passkey is not one of its.
  const tried =
    account ??
    (expectedAccount === undefined ? undefined : await findAccountById(db, expectedAccount))

  // Counted before the signature is checked, like a password: against the account's keys (from
  // this device or this address), or, for a passkey nobody has, against the address.
  const gate = await context.limits.gate(
    tried
      ? await limitKeysFor(context.db, tried.email, tried, origin)
      : [limitKeys.address(origin.address)],
  )
  if (!gate.allowed) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: gate.retryAfterSeconds }
  }
  const newCounter =
    passkey && account
      ? await signatureHolds(context, response, passkey, mfaChallenge, now)
      : undefined
  if (
    !passkey ||
    !account ||
    newCounter === undefined ||
    !(await recordPasskeyUse(db, passkey, newCounter, now))
  ) {
    await recordAccountEvent(db, 'sign_in_failed', tried?.id, origin.audit, { method: 'passkey' })
    if (tried && (await context.limits.isLocked(tried.email))) {
      await recordAccountEvent(db, 'locked', tried.id, origin.audit)
    }
    return { outcome: 'invalid_passkey' }
  }
  await gate.attempt.succeeded()
  if (mfaChallenge !== undefined && !(await finishMfaChallenge(db, mfaChallenge, now))) {
    return { outcome: 'challenge_expired' }
  }
  // Only the passkey's holder learns the account's status, as with a right password.
  if (account.status === 'pending') return { outcome: 'pending_approval' }
  if (account.status === 'disabled') return { outcome: 'account_disabled' }
  return completeSignIn(context, account, origin, 'passkey')
}
