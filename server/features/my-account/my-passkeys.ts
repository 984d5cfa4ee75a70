import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Passkey } from '../../../common/api/me'
import type { CreationOptions, RegistrationCredential } from '../../../common/api/webauthn'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../http/request-origin'
import type { ApiContext } from '../../api/api-context'
import { invalidInput } from '../../accounts/account-input'
import type { Account, Session } from '../../db/schema'
import { apiError } from '../../http/errors'
import { challengeIn, keepChallenge, takeChallenge } from '../../accounts/passkey-challenges'
import { normalizePasskeyName, passkeyNameProblem } from '../../accounts/passkey-name'
import {
  deletePasskey,
  insertPasskey,
  listPasskeys,
  publicPasskey,
  renamePasskey,
  transportsOf,
} from '../../accounts/passkey-store'
import {
  CEREMONY_TIMEOUT_MS,
  relyingParty,
  SUPPORTED_ALGORITHMS,
  userHandleOf,
  webauthnLibrary,
} from '../../accounts/relying-party'

/**
 * "Minha conta" → passkeys: list, add (options, then the browser's answer), rename, remove.
 * Adding is bound to the session that asked for the options; every change is audited.
 */

export async function myPasskeys(context: ApiContext, account: Account): Promise<Passkey[]> {
  return (await listPasskeys(context.db, account.id)).map(publicPasskey)
}

/** WebAuthn creation options: a discoverable credential, excluding the ones the account has. */
export async function passkeyCreationOptions(
  context: ApiContext,
  account: Account,
  session: Session,
): Promise<CreationOptions> {
  const rp = relyingParty(context.config.publicUrl)
  const { generateRegistrationOptions } = await webauthnLibrary()
  const existing = await listPasskeys(context.db, account.id)
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandleOf(account.id),
    userName: account.email,
    userDisplayName: account.name,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credential_id,
      transports: transportsOf(passkey),
    })),
    // Discoverable (signs in without an e-mail) and verified by the device's PIN or biometrics
    // (so the passkey alone is two factors: the device and the person).
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  })
  await keepChallenge(
    context.db,
    options.challenge,
    { purpose: 'register', accountId: account.id, sessionId: session.id },
    context.now(),
  )
  return options as CreationOptions
}

/** The name as stored, or the 400 that says what is wrong with it. */
function acceptedPasskeyName(rawName: string): string {
  const problem = passkeyNameProblem(rawName)
  if (problem) throw invalidInput(problem)
  return normalizePasskeyName(rawName)
}

const notAdded = () => apiError(400, 'passkey_not_added', 'invalid_passkey')

/** Checks the browser's new credential against this session's challenge, then stores it. */
export async function addMyPasskey(
  context: ApiContext,
  account: Account,
  session: Session,
  response: RegistrationCredential,
  rawName: string,
  origin: RequestOrigin,
): Promise<Passkey> {
  const name = acceptedPasskeyName(rawName)
  const now = context.now()
  const challenge = challengeIn(response.response.clientDataJSON)
  if (
    challenge === undefined ||
    !(await takeChallenge(
      context.db,
      challenge,
      { purpose: 'register', accountId: account.id, sessionId: session.id },
      now,
    ))
  ) {
    throw notAdded()
  }
  const rp = relyingParty(context.config.publicUrl)
  const { verifyRegistrationResponse } = await webauthnLibrary()
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>
  try {
    verified = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    })
  } catch {
    // The library throws on any answer it cannot accept (wrong origin, bad CBOR, …).
    throw notAdded()
  }
  if (!verified.verified) throw notAdded()
  const { credential } = verified.registrationInfo
  return context.db.transaction().execute(async (trx) => {
    const stored = await insertPasskey(trx, {
      accountId: account.id,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
      name,
      now,
    })
    if (!stored) throw notAdded()
    await recordAccountEvent(trx, 'passkey_added', account.id, origin, {
      passkey: stored.id,
      name,
    })
    return publicPasskey(stored)
  })
}

export async function renameMyPasskey(
  context: ApiContext,
  account: Account,
  id: string,
  rawName: string,
  origin: RequestOrigin,
): Promise<Passkey> {
  const name = acceptedPasskeyName(rawName)
  return context.db.transaction().execute(async (trx) => {
    const before = (await listPasskeys(trx, account.id)).find((passkey) => passkey.id === id)
    const renamed = before && (await renamePasskey(trx, account.id, id, name))
    if (!before || !renamed) throw apiError(404, 'passkey_not_found', 'not_found')
    // The same name again changed nothing, and the log records changes only.
    if (before.name === name) return publicPasskey(renamed)
    await recordAccountEvent(trx, 'passkey_renamed', account.id, origin, {
      passkey: id,
      from: before.name,
      name,
    })
    return publicPasskey(renamed)
  })
}

export async function removeMyPasskey(
  context: ApiContext,
  account: Account,
  id: string,
  origin: RequestOrigin,
): Promise<void> {
  await context.db.transaction().execute(async (trx) => {
    const removed = await deletePasskey(trx, account.id, id)
    if (!removed) throw apiError(404, 'passkey_not_found', 'not_found')
    await recordAccountEvent(trx, 'passkey_removed', account.id, origin, {
      passkey: id,
      name: removed.name,
      by: 'owner',
    })
  })
}
