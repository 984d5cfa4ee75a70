import { signOutOnServer } from './session-api'
import { clearToken } from './token'

/** How long "Sair" waits for the server to revoke the session before leaving anyway. */
const LOGOUT_TIMEOUT_MS = 3000

/**
 * "Sair": revoke the session on the server, then forget the token here. The token is forgotten
 * even when the server cannot be reached: leaving must always work.
 */
export async function signOut(): Promise<void> {
  try {
    await Promise.race([
      signOutOnServer(),
      new Promise((resolve) => setTimeout(resolve, LOGOUT_TIMEOUT_MS)),
    ])
  } catch {
    // Already expired or unreachable: nothing more to revoke from here.
  }
  clearToken({ signedOut: true })
}
