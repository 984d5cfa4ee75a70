import { startAuthentication } from '@simplewebauthn/browser'
import { ApiError } from '../../session/api-client'
import { passkeyMessages } from './passkey-messages'
import { passkeySignInOptions, signInWithPasskey } from './passkey-sign-in-api'
import { saveToken } from '../../session/token'

/**
 * "Entrar com chave de acesso": the browser asks for one of this site's passkeys (discoverable:
 * no e-mail needed), the server checks its signature and answers a session. With `challenge`,
 * the passkey is the second factor of a sign-in whose password was right. Imported only when the
 * person asks (with @simplewebauthn/browser), so the cold login page does not carry it.
 */
export async function signInWithPasskeyNow(challenge?: string): Promise<void> {
  const optionsJSON = await passkeySignInOptions(challenge)
  // The server's schema types a few fields as plain strings where the library names their values.
  const response = await startAuthentication({
    optionsJSON: optionsJSON as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  })
  const { token } = await signInWithPasskey(response, challenge)
  saveToken(token)
}

/**
 * What to tell the person when a passkey sign-in did not work: the server's message, or that the
 * browser has no passkeys, or that none was used (cancelled, timed out); null when it worked.
 */
export async function passkeyProblem(attempt: Promise<void>): Promise<string | null> {
  try {
    await attempt
    return null
  } catch (caught) {
    if (caught instanceof ApiError && caught.status !== 0) return caught.message
    return typeof window.PublicKeyCredential === 'function'
      ? passkeyMessages.failed
      : passkeyMessages.unsupported
  }
}

/** "Entrar com chave de acesso" on the login page: a passkey alone; what went wrong, or null. */
export const passkeyAloneProblem = () => passkeyProblem(signInWithPasskeyNow())
