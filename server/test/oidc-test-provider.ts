import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AuthProvider } from '../config/auth-providers'
import Provider, { type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider'

/**
 * A real OpenID Connect provider (oidc-provider, the reference implementation) in this process,
 * on loopback, for single sign-on's server tests and the Playwright suites: clients registered
 * for Painel, test accounts whose claims each test chooses (e-mail verified or not, its domain,
 * amr/acr, groups, anything else), key rotation, and stop/start on the same port to play a
 * provider that is down. Its login page is a plain form ("E-mail", "Senha", "Entrar",
 * "Cancelar"), so a browser signs in there as at any provider; `signIn` fills it in headlessly.
 */

export interface TestAccount {
  /** The `sub` claim. */
  id: string
  email?: string
  emailVerified?: boolean
  name?: string
  /** Authentication methods (RFC 8176), e.g. ['pwd', 'mfa']. */
  amr?: string[]
  acr?: string
  /** Any other claims: groups, roles, xms_edov, hd, realm_access… */
  claims?: Record<string, unknown>
  /** What the login page asks for; any password when unset. */
  password?: string
}

export interface TestClient {
  clientId: string
  clientSecret: string
  redirectUris: string[]
  /** UserInfo answers as a JWT signed with the provider's key (`userinfo_signed_response_alg`). */
  signedUserInfo?: boolean
}

/**
 * Where the person's claims go. `userinfo` is oidc-provider's default (`conformIdTokenClaims`):
 * whenever an access token is issued, the ID token carries only the protocol's claims (sub, acr,
 * amr, auth_time) and every claim of the person (e-mail, name, groups…) comes from UserInfo, as
 * Zitadel, Okta's org server and Authelia do by default. `id-token` puts them in the ID token
 * too, as Google, Entra and gov.br do.
 */
export type ClaimsIn = 'userinfo' | 'id-token'

/** A UserInfo endpoint that misbehaves, for the refusals: down, or answering for someone else. */
export type UserInfoFault = 'error' | 'other-subject' | null

export interface OidcTestProviderOptions {
  clients: TestClient[]
  accounts?: TestAccount[]
  /** 0 (the default): any free port. */
  port?: number
  /** Default `userinfo`, the provider as it ships. */
  claimsIn?: ClaimsIn
  /** How long an ID token is valid (oidc-provider's default: an hour). */
  idTokenTtlSeconds?: number
  /**
   * Anyone may sign in with an e-mail no account has: a person with that e-mail, verified, is
   * made on the spot (the Playwright journeys' unique e-mails, e2e/support/oidc-provider-server.ts).
   * The page's "E-mail não confirmado" box makes that person's e-mail unverified, at this sign-in
   * and after (a provider that does not vouch for it, e2e/single-sign-on.spec.ts).
   */
  anyEmail?: boolean
}

export interface OidcTestProvider {
  /** `http://127.0.0.1:<port>`: the issuer identifier, and where discovery is. */
  readonly issuer: string
  /** Adds or replaces an account (by id). */
  setAccount(account: TestAccount): void
  /** From now on, UserInfo fails this way (null: it works again). */
  setUserInfoFault(fault: UserInfoFault): void
  /** Signs with a new key from now on and publishes only that one (the old key is withdrawn). */
  rotateKeys(): void
  /** The key ids the provider publishes now. */
  publishedKeyIds(): string[]
  /** Closes the port: the provider is down. */
  stop(): Promise<void>
  /** Listens again on the same port, with the same keys, clients and accounts. */
  start(): Promise<void>
  /**
   * Follows an authorization URL as a browser would, signing in as `login` (id or e-mail) on
   * the login page: the URL the provider sends the browser back to (not followed).
   */
  signIn(authorizationUrl: string | URL, login: string, password?: string): Promise<URL>
  /** The same, pressing "Cancelar" on the login page: back with error=access_denied. */
  cancel(authorizationUrl: string | URL): Promise<URL>
}

/**
 * Claims the provider releases with `openid` (always asked for): in the ID token whatever the
 * mode, as Entra's and Google's tenant claims are. The person's groups and roles are released
 * with `profile`, like the person's name: in UserInfo only when the provider runs as it ships.
 */
const PROTOCOL_EXTRA_CLAIMS = ['xms_edov', 'hd', 'tid']
const PROFILE_CLAIMS = ['name', 'groups', 'roles', 'realm_access', 'preferred_username']
const COOKIE_KEYS = ['painel-test-provider-cookie-key']

/** Storage for one provider, kept across key rotations (oidc-provider's own is process-wide). */
function adapterFor(store: Map<string, AdapterPayload>) {
  return class MapAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`
    async upsert(id: string, payload: AdapterPayload) {
      store.set(this.key(id), payload)
    }
    async find(id: string) {
      return store.get(this.key(id))
    }
    async findByUserCode(userCode: string) {
      return [...store.values()].find((payload) => payload.userCode === userCode)
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(
        ([key, payload]) => key.startsWith(`${this.model}:`) && payload.uid === uid,
      )?.[1]
    }
    async consume(id: string) {
      const payload = store.get(this.key(id))
      if (payload) payload.consumed = Math.floor(Date.now() / 1000)
    }
    async destroy(id: string) {
      store.delete(this.key(id))
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key)
    }
  }
}

function newSigningKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' }
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

function loginPage(uid: string, problem?: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Provedor de teste</title></head>
<body><main><h1>Provedor de teste</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>E-mail <input name="login" autocomplete="username" required></label>
<label>Senha <input name="password" type="password" autocomplete="current-password"></label>
<label><input name="unverified" type="checkbox"> E-mail não confirmado</label>
<button type="submit">Entrar</button>
</form>
<p><a href="/interaction/${escapeHtml(uid)}/abort">Cancelar</a></p>
</main></body></html>`
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

export async function startOidcTestProvider(
  options: OidcTestProviderOptions,
): Promise<OidcTestProvider> {
  const accounts = new Map((options.accounts ?? []).map((account) => [account.id, account]))
  const store = new Map<string, AdapterPayload>()
  let keys = [newSigningKey()]
  let provider: Provider
  let port = options.port ?? 0
  let server: Server | undefined

  /** People made on the spot (anyEmail), whose e-mail the page's box may leave unverified. */
  const madeHere = new Set<string>()
  const findAccount = (login: string, unverified: boolean) => {
    const found =
      accounts.get(login) ??
      [...accounts.values()].find((account) => account.email?.toLowerCase() === login.toLowerCase())
    if (found && madeHere.has(found.id)) found.emailVerified = !unverified
    if (found || !options.anyEmail || !/^[^\s@]+@[^\s@]+$/.test(login)) return found
    const email = login.toLowerCase()
    const made: TestAccount = { id: email, email, emailVerified: !unverified }
    accounts.set(made.id, made)
    madeHere.add(made.id)
    return made
  }

  const build = (issuer: string) => {
    const configuration: Configuration = {
      adapter: adapterFor(store),
      clients: options.clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(client.signedUserInfo ? { userinfo_signed_response_alg: 'RS256' } : {}),
      })),
      jwks: { keys },
      cookies: { keys: COOKIE_KEYS },
      claims: {
        // acr, amr and auth_time under `openid`: in every ID token, as the big providers do.
        openid: ['sub', 'acr', 'amr', 'auth_time', ...PROTOCOL_EXTRA_CLAIMS],
        sid: null,
        email: ['email', 'email_verified'],
        profile: PROFILE_CLAIMS,
        govbr_confiabilidades: [],
      },
      conformIdTokenClaims: (options.claimsIn ?? 'userinfo') === 'userinfo',
      acrValues: ['urn:painel:test:pwd', 'urn:painel:test:mfa', '2'],
      features: { devInteractions: { enabled: false }, jwtUserinfo: { enabled: true } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      ttl: {
        IdToken: options.idTokenTtlSeconds ?? 3600,
        AccessToken: 600,
        AuthorizationCode: 60,
        Interaction: 600,
        Session: 600,
        Grant: 600,
      },
      findAccount: (_ctx, sub) => {
        const account = accounts.get(sub)
        if (!account) return undefined
        return {
          accountId: sub,
          claims: () => ({
            sub,
            ...(account.email === undefined ? {} : { email: account.email }),
            ...(account.emailVerified === undefined
              ? {}
              : { email_verified: account.emailVerified }),
            ...(account.name === undefined ? {} : { name: account.name }),
            ...account.claims,
          }),
        }
      },
      // Painel is a first-party client here: nothing to consent to, every scope asked is given.
      loadExistingGrant: async (ctx) => {
        const grantId =
          ctx.oidc.result?.consent?.grantId ??
          ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId)
        if (grantId) {
          const existing = await ctx.oidc.provider.Grant.find(grantId)
          if (existing) return existing
        }
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId!,
        })
        const scope = ctx.oidc.params?.scope
        grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid')
        await grant.save()
        return grant
      },
      renderError: (ctx, out) => {
        ctx.type = 'text/plain; charset=utf-8'
        ctx.body = `${out.error}: ${out.error_description ?? ''}`
      },
    }
    const built = new Provider(issuer, configuration)
    // oidc-provider logs errors of its own through this event; the tests look at outcomes.
    built.on('server_error', () => {})
    return built
  }

  const interaction = async (request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(request.url ?? '')
    if (!match) return false
    const [, uid = '', action] = match
    if (request.method === 'GET' && action === undefined) {
      await provider.interactionDetails(request, response)
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(loginPage(uid))
      return true
    }
    if (request.method === 'GET' && action === '/abort') {
      await provider.interactionFinished(
        request,
        response,
        { error: 'access_denied', error_description: 'The person cancelled at the provider' },
        { mergeWithLastSubmission: false },
      )
      return true
    }
    if (request.method === 'POST' && action === '/login') {
      await provider.interactionDetails(request, response)
      const form = await formBody(request)
      const account = findAccount(form.get('login') ?? '', form.has('unverified'))
      if (
        !account ||
        (account.password !== undefined && account.password !== form.get('password'))
      ) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.end(loginPage(uid, 'E-mail ou senha incorretos.'))
        return true
      }
      await provider.interactionFinished(
        request,
        response,
        {
          login: {
            accountId: account.id,
            ...(account.amr ? { amr: account.amr } : {}),
            ...(account.acr ? { acr: account.acr } : {}),
          },
        },
        { mergeWithLastSubmission: false },
      )
      return true
    }
    return false
  }

  let userInfoFault: UserInfoFault = null
  /** oidc-provider's UserInfo is `/me`; a fault answers in its place. */
  const faultyUserInfo = (request: IncomingMessage, response: ServerResponse) => {
    if (userInfoFault === null || !/^\/me(\?|$)/.test(request.url ?? '')) return false
    if (userInfoFault === 'error') {
      response.writeHead(500, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: 'server_error' }))
    } else {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          sub: 'someone-else',
          email: 'someone-else@example.com',
          email_verified: true,
        }),
      )
    }
    return true
  }

  const listen = async () => {
    const created = createServer((request, response) => {
      if (faultyUserInfo(request, response)) return
      interaction(request, response)
        .then((handled) => {
          if (!handled) return provider.callback()(request, response)
        })
        .catch((error: unknown) => {
          if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain' })
          response.end(String(error))
        })
    })
    // Longer than a test's pause between two calls: Node's 5 s default closes an idle socket
    // just as the client reuses it (ECONNRESET), which real providers' long keep-alives do not.
    created.keepAliveTimeout = 60_000
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject)
      created.listen(port, '127.0.0.1', () => resolve())
    })
    port = (created.address() as AddressInfo).port
    server = created
  }

  await listen()
  const issuer = `http://127.0.0.1:${port}`
  provider = build(issuer)

  /** A browser's cookie jar, enough for one provider on one host. */
  const browse = async (start: string | URL, submit?: URLSearchParams | 'abort') => {
    const jar = new Map<string, string>()
    const get = async (url: URL, body?: URLSearchParams) => {
      const response = await fetch(url, {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body ? { body: body.toString() } : {}),
      })
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';')
        const at = pair.indexOf('=')
        const [name, value] = [pair.slice(0, at), pair.slice(at + 1)]
        if (/expires=Thu, 01 Jan 1970/i.test(cookie) || value === '') jar.delete(name)
        else jar.set(name, value)
      }
      await response.arrayBuffer()
      const location = response.headers.get('location')
      return { status: response.status, location: location ? new URL(location, url) : null }
    }
    let url = new URL(start)
    for (let hop = 0; hop < 10; hop++) {
      const interactionPage = /^\/interaction\/([\w-]+)$/.exec(url.pathname)
      const answer =
        interactionPage && submit
          ? await get(
              new URL(
                submit === 'abort' ? `${url.pathname}/abort` : `${url.pathname}/login`,
                issuer,
              ),
              submit === 'abort' ? undefined : submit,
            )
          : await get(url)
      if (!answer.location) {
        throw new Error(`the test provider answered ${answer.status} at ${url.pathname}`)
      }
      if (answer.location.origin !== issuer) return answer.location
      url = answer.location
    }
    throw new Error('the test provider redirected too many times')
  }

  return {
    issuer,
    setAccount(account) {
      accounts.set(account.id, account)
    },
    setUserInfoFault(fault) {
      userInfoFault = fault
    },
    rotateKeys() {
      keys = [newSigningKey()]
      provider = build(issuer)
    },
    publishedKeyIds: () => keys.map((key) => key.kid),
    async stop() {
      const closing = server
      server = undefined
      if (!closing) return
      closing.closeAllConnections()
      await new Promise<void>((resolve) => closing.close(() => resolve()))
    },
    async start() {
      if (!server) await listen()
    },
    signIn: (authorizationUrl, login, password = '') =>
      browse(authorizationUrl, new URLSearchParams({ login, password })),
    cancel: (authorizationUrl) => browse(authorizationUrl, 'abort'),
  }
}

/** A generic provider's settings as the config reads them, for the single sign-on tests. */
export function testProviderSettings(overrides: Partial<AuthProvider> = {}): AuthProvider {
  return {
    name: 'corp',
    issuerUrl: 'https://sso.corp.example',
    clientId: 'painel',
    clientSecret: 'secret',
    preset: 'generic',
    buttonText: 'Entrar com corp',
    mark: 'key',
    scopes: ['openid', 'email', 'profile'],
    allowedDomains: [],
    autoApprove: false,
    adminClaim: null,
    adminValues: [],
    roleClaim: null,
    roleMap: [],
    teamClaim: null,
    teamMap: [],
    trustMfa: false,
    ...overrides,
  }
}

/** Provider `name` as both sides know it: see `registeredProvider`. */
export interface RegisteredProvider {
  /** What the test provider registers: painel-<name>, secret segredo-<name>, Painel's callback. */
  client: TestClient
  /** Painel's settings for it once the test provider runs at `issuer`, with `overrides`. */
  settings(issuer: string, overrides?: Partial<AuthProvider>): AuthProvider
}

/**
 * Provider `name` registered at the test provider and configured in Painel with the same client
 * id and secret (painel-<name> and segredo-<name> unless `credentials` say), the callback under
 * `publicUrl` (the app's PUBLIC_URL): the pair every single sign-on test made by hand. Its button
 * reads "Entrar com <name>" unless `overrides` say.
 */
export function registeredProvider(
  name: string,
  publicUrl: string,
  credentials: Pick<TestClient, 'clientId' | 'clientSecret'> = {
    clientId: `painel-${name}`,
    clientSecret: `segredo-${name}`,
  },
): RegisteredProvider {
  const client: TestClient = {
    ...credentials,
    redirectUris: [`${publicUrl}/api/auth/oidc/${name}/callback`],
  }
  return {
    client,
    settings: (issuer, overrides = {}) =>
      testProviderSettings({
        name,
        issuerUrl: issuer,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        buttonText: `Entrar com ${name}`,
        ...overrides,
      }),
  }
}

/**
 * Provider `name` configured but never reached (its issuer is port 9, discard, where nobody
 * listens): for the tests of what names a provider (the audit CSV, the mails), which need only
 * its label, "Conta Corporativa" from its button's words.
 */
export function namedOnlyProvider(name: string, publicUrl: string) {
  return registeredProvider(name, publicUrl).settings('http://127.0.0.1:9', {
    buttonText: 'Entrar com Conta Corporativa',
  })
}
