import { startRegistration } from '@simplewebauthn/browser'
import { addPasskey, passkeyCreationOptions } from './second-factor-api'

/**
 * A new passkey: the server's creation options, the browser's prompt, the server's check.
 * Imported only when the person adds one, with @simplewebauthn/browser.
 */
export async function registerPasskey(name: string) {
  const optionsJSON = await passkeyCreationOptions()
  // The server's schema types a few fields as plain strings where the library names their values.
  const response = await startRegistration({
    optionsJSON: optionsJSON as Parameters<typeof startRegistration>[0]['optionsJSON'],
  })
  return addPasskey({ response, name })
}
