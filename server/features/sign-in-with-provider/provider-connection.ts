import * as client from 'openid-client'
import { PRESETS } from '../../config/auth-provider-presets'
import type { AuthProvider } from '../../config/auth-providers'

/**
 * One configured provider's discovered metadata (openid-client's Configuration), found when first
 * needed and kept. A provider that cannot be reached at start does not stop the server: start-up
 * may `warmUp()` every provider (failures are logged, never thrown), and each use that finds no
 * metadata tries again, so the provider works as soon as it is back. Concurrent uses share one
 * attempt; after a failure, uses within `retryAfterMs` answer "unreachable" at once rather than
 * make every press of the button wait for another timeout.
 */

export class ProviderUnreachable extends Error {
  constructor(provider: string, cause: unknown) {
    super(`provider ${provider}: discovery failed (${describeError(cause)})`, { cause })
    this.name = 'ProviderUnreachable'
  }
}

export interface ProviderConnectionOptions {
  /** `${PUBLIC_URL}/api/auth/oidc/<name>/callback`, as registered at the provider. */
  redirectUri: string
  /** Each request to the provider (discovery, token, keys) gives up after this; default 5 s. */
  timeoutSeconds?: number
  /** Leeway on the ID token's exp/iat/nbf for clocks a little apart; default 30 s. */
  clockToleranceSeconds?: number
  /** Default 5 s. */
  retryAfterMs?: number
  /** The clock of the sign-in (tests run it ahead to expire tokens); default the real one. */
  now?: () => Date
  /** The tests' fetch (to play a provider that answers for another issuer or client). */
  fetch?: client.CustomFetch
  log?: { warn(message: string): void; info(message: string): void }
}

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const { code, error: oauthError } = error as { code?: unknown; error?: unknown }
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  const answered = typeof oauthError === 'string' ? ` (${oauthError})` : ''
  return `${typeof code === 'string' ? `${code} ` : ''}${error.message}${answered}${cause}`
}

export class ProviderConnection {
  private discovered: client.Configuration | undefined
  private attempt: Promise<client.Configuration> | undefined
  private failedAt = -Infinity
  private lastFailure: unknown

  constructor(
    readonly provider: AuthProvider,
    readonly options: ProviderConnectionOptions,
  ) {}

  now(): Date {
    return this.options.now?.() ?? new Date()
  }

  get redirectUri(): string {
    return this.options.redirectUri
  }

  /** The provider's metadata, discovering it now if it is not known yet. */
  async configuration(): Promise<client.Configuration> {
    if (this.discovered) return this.discovered
    if (!this.attempt) {
      if (Date.now() - this.failedAt < (this.options.retryAfterMs ?? 5000)) {
        throw new ProviderUnreachable(this.provider.name, this.lastFailure)
      }
      this.attempt = this.discover().then(
        (configuration) => {
          this.discovered = configuration
          this.options.log?.info(`sign-in provider ${this.provider.name}: discovered`)
          return configuration
        },
        (error: unknown) => {
          this.failedAt = Date.now()
          this.lastFailure = error
          const unreachable = new ProviderUnreachable(this.provider.name, error)
          this.options.log?.warn(unreachable.message)
          throw unreachable
        },
      )
      void this.attempt.finally(() => (this.attempt = undefined)).catch(() => {})
    }
    return this.attempt
  }

  /** Discovers now if not yet done; false (and logged) when the provider cannot be reached. */
  async warmUp(): Promise<boolean> {
    try {
      await this.configuration()
      return true
    } catch {
      return false
    }
  }

  private async discover(): Promise<client.Configuration> {
    const { provider, options } = this
    const issuer = new URL(provider.issuerUrl)
    const skewSeconds = options.now ? Math.round((options.now().getTime() - Date.now()) / 1000) : 0
    const metadata: Partial<client.ClientMetadata> = {
      client_secret: provider.clientSecret,
      [client.clockTolerance]: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
      ...(skewSeconds === 0 ? {} : { [client.clockSkew]: skewSeconds }),
    }
    // The ID token's signature is checked against the provider's published keys (openid-client
    // skips it by default for a token straight from the token endpoint over TLS): a key-id it
    // does not know makes it fetch the keys again, when its copy is a minute old or more.
    const execute = [
      client.enableNonRepudiationChecks,
      ...(issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
    ]
    const configuration = await client.discovery(issuer, provider.clientId, metadata, undefined, {
      execute,
      timeout: options.timeoutSeconds ?? 5,
      ...(options.fetch ? { [client.customFetch]: options.fetch } : {}),
    })
    // The client authentication the provider offers: client_secret_basic when it lists it or
    // lists nothing (the spec's default; gov.br wants it), else client_secret_post (Entra).
    const methods = configuration.serverMetadata().token_endpoint_auth_methods_supported
    const authentication =
      !methods || methods.includes('client_secret_basic')
        ? client.ClientSecretBasic(provider.clientSecret)
        : client.ClientSecretPost(provider.clientSecret)
    const connected = new client.Configuration(
      configuration.serverMetadata(),
      provider.clientId,
      metadata,
      authentication,
    )
    for (const step of execute) step(connected)
    if (options.fetch) connected[client.customFetch] = options.fetch
    connected.timeout = options.timeoutSeconds ?? 5
    if (PRESETS[provider.preset].requiresPkce && !connected.serverMetadata().supportsPKCE('S256')) {
      throw new Error(`the ${provider.preset} preset requires PKCE (S256), which it does not offer`)
    }
    return connected
  }
}
