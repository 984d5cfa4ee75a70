import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { generateKeyPairSync, pbkdf2Sync, randomInt } from 'node:crypto'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import Libsql from 'libsql'
import { registeredProvider, type RegisteredProvider, type TestClient } from './oidc-test-provider'

/**
 * glewlwyd (Debian's package, a single sign-on server in C with its own OpenID Connect plugin)
 * as a second provider for the single sign-on tests, independent of oidc-provider: its own
 * process on a free loopback port, its own SQLite database in a temporary folder, made from the
 * schema the package ships and the rows its admin page would write (the plugin, the clients, the
 * people, their passwords and properties). No webapp is served: `signIn` makes the calls its
 * login page makes (password, consent, continue), as a browser running that page would.
 * docs/single-sign-on.md ("An independent provider: glewlwyd") says what it takes and sends.
 */

const GLEWLWYD = '/usr/bin/glewlwyd'
const SCHEMA = '/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz'
const MODULES = '/usr/lib/glewlwyd'

/** Why glewlwyd cannot run here, or null when it can. */
export function glewlwydMissing(): string | null {
  if (!existsSync(GLEWLWYD)) return `no ${GLEWLWYD} (apt: glewlwyd)`
  if (!existsSync(SCHEMA)) return `no ${SCHEMA} (the glewlwyd package's database schema)`
  return null
}

/** glewlwyd's own version (`glewlwyd --version`), for the tests' log. */
export function glewlwydVersion(): string {
  return spawnSync(GLEWLWYD, ['--version'], { encoding: 'utf8' }).stdout.trim()
}

export interface GlewlwydUser {
  /** What the login page asks for. glewlwyd's `sub` is its own random string, not this. */
  username: string
  password: string
  name?: string
  email?: string
  /**
   * The person's other properties in glewlwyd's database (`groups`, `email-verified`…), each
   * declared in the database user module; a claim carries one when the plugin's `claims` map it.
   */
  properties?: Record<string, string | string[]>
}

/**
 * One of the plugin's "additional claims", as glewlwyd's admin page writes it (OIDC.md,
 * "Additional claims in the ID Token or the /userinfo endpoint"): the claim `name` carries the
 * user property `user-property`, released with the scopes of `scope`.
 */
export interface GlewlwydClaim {
  name: string
  'user-property': string
  type: 'string' | 'number' | 'boolean'
  /** For `boolean`: the property's text that means true, and false. */
  'boolean-value-true'?: string
  'boolean-value-false'?: string
  mandatory: boolean
  'on-demand': boolean
  scope: string[]
}

export interface GlewlwydOptions {
  clients: TestClient[]
  users: GlewlwydUser[]
  /** The plugin's additional claims (none by default, as on a new plugin). */
  claims?: GlewlwydClaim[]
  /** Plugin parameters other than NEW_PLUGIN's and FOR_PAINEL's (`{ 'pkce-allowed': false }`). */
  plugin?: Record<string, unknown>
}

export interface GlewlwydProvider {
  /** `http://127.0.0.1:<port>/api/oidc`: the plugin's issuer, where discovery is. */
  readonly issuer: string
  /** From the spawn to the first answer of discovery, and before it the folder and database. */
  readonly startMs: { provisioning: number; spawnToReady: number }
  /**
   * Follows an authorization URL as a browser on glewlwyd's login page would: the password of
   * `username` (its own when not given), consent to the scopes asked for, "Continue". Answers
   * the URL glewlwyd sends the browser back to (not followed).
   */
  signIn(authorizationUrl: string | URL, username: string, password?: string): Promise<URL>
  /** SIGTERM, then the temporary folder is removed. */
  stop(): Promise<void>
}

const PLUGIN_NAME = 'oidc'

/**
 * What glewlwyd 2.7.5's admin page gives a new OpenID Connect plugin (the defaults in
 * webapp/admin.js), where a relying party can tell: RS256, the name only when a `claims` request
 * asks for it, no e-mail, no additional claims, PKCE refused.
 */
const NEW_PLUGIN = {
  'jwt-type': 'rsa',
  'jwt-key-size': '256',
  'jwks-show': true,
  'access-token-duration': 3600,
  'refresh-token-duration': 1209600,
  'code-duration': 600,
  'refresh-token-rolling': true,
  'allow-non-oidc': false,
  'auth-type-code-enabled': true,
  'auth-type-token-enabled': true,
  'auth-type-id-token-enabled': true,
  'auth-type-none-enabled': true,
  'auth-type-password-enabled': false,
  'auth-type-client-enabled': true,
  'auth-type-device-enabled': false,
  'auth-type-refresh-enabled': true,
  'allowed-scope': ['openid'],
  'name-claim': 'on-demand',
  'name-claim-scope': [],
  'email-claim': 'no',
  'email-claim-scope': [],
  'scope-claim': 'no',
  claims: [],
  'pkce-allowed': false,
  'pkce-method-plain-allowed': false,
  'pkce-required': false,
  'request-parameter-allow': true,
  'introspection-revocation-allowed': false,
  'register-client-allowed': false,
  'session-management-allowed': false,
}

/**
 * What an operator changes for Painel, each needed: the e-mail released with the `email` scope
 * and the name with `profile` (else Painel never learns who signed in), the scopes offered, PKCE
 * allowed (Painel always sends an S256 challenge, and a new plugin refuses any). ES256 rather
 * than RS256 only because its key is made in a millisecond; Painel checks either against the
 * published keys.
 */
const FOR_PAINEL = {
  'jwt-type': 'ecdsa',
  'jwt-key-size': '256',
  'default-kid': 'painel-test',
  'allowed-scope': ['openid', 'email', 'profile'],
  'name-claim-scope': ['profile'],
  'email-claim': 'on-demand',
  'email-claim-scope': ['email'],
  'pkce-allowed': true,
}

/** The scopes glewlwyd must know, and may give each person, for Painel's `openid email profile`. */
const SCOPES = ['openid', 'email', 'profile']

/**
 * A password as glewlwyd's database user module stores it on SQLite (user_database.c):
 * base64(PBKDF2-HMAC-SHA256(password, salt, 1000 rounds, 32 bytes) ‖ salt), the salt 16 printable
 * characters (it is read back as text), no ",rounds" suffix meaning 1000.
 */
export function glewlwydPasswordHash(password: string): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const salt = Array.from({ length: 16 }, () => letters[randomInt(letters.length)]).join('')
  const digest = pbkdf2Sync(password, salt, 1000, 32, 'sha256')
  return Buffer.concat([digest, Buffer.from(salt)]).toString('base64')
}

function signingKeys(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: FOR_PAINEL['default-kid'] }
  return JSON.stringify({ keys: [{ ...jwk, alg: 'ES256', use: 'sig' }] })
}

/** The database: glewlwyd's schema and default rows, then the plugin, clients and people. */
function provision(file: string, issuer: string, options: GlewlwydOptions) {
  const db = new Libsql(file)
  try {
    // One transaction, no journal and no waiting for the disk: a throwaway file, made in a few
    // milliseconds rather than a second (one fsync per statement of the schema otherwise).
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN')
    db.exec(gunzipSync(readFileSync(SCHEMA)).toString('utf8'))
    const run = (sql: string, ...values: unknown[]) => db.prepare(sql).run(...values)
    const one = (sql: string, ...values: unknown[]) =>
      (db.prepare(sql).get(...values) as { id: number }).id

    // Every property a person has is declared, like the admin page's "additional properties".
    const module = one(
      "SELECT gumi_id AS id FROM g_user_module_instance WHERE gumi_name = 'database'",
    )
    const moduleParameters = JSON.parse(
      (
        db
          .prepare('SELECT gumi_parameters FROM g_user_module_instance WHERE gumi_id = ?')
          .get(module) as { gumi_parameters: string }
      ).gumi_parameters,
    ) as { 'data-format': Record<string, unknown> }
    for (const user of options.users) {
      for (const [property, value] of Object.entries(user.properties ?? {})) {
        moduleParameters['data-format'][property] = {
          multiple: Array.isArray(value),
          read: true,
          write: true,
          'profile-read': true,
          'profile-write': false,
        }
      }
    }
    run(
      'UPDATE g_user_module_instance SET gumi_parameters = ? WHERE gumi_id = ?',
      JSON.stringify(moduleParameters),
      module,
    )

    for (const scope of SCOPES.filter((name) => name !== 'openid')) {
      run(
        'INSERT INTO g_scope (gs_name, gs_display_name, gs_description, gs_password_required, gs_password_max_age) VALUES (?, ?, ?, 1, 0)',
        scope,
        scope,
        `The ${scope} claims`,
      )
    }
    for (const scope of SCOPES) run('INSERT INTO g_user_scope (gus_name) VALUES (?)', scope)

    run(
      "INSERT INTO g_plugin_module_instance (gpmi_module, gpmi_name, gpmi_display_name, gpmi_parameters, gpmi_enabled) VALUES ('oidc', ?, 'OpenID Connect', ?, 1)",
      PLUGIN_NAME,
      JSON.stringify({
        ...NEW_PLUGIN,
        ...FOR_PAINEL,
        iss: issuer,
        'jwks-private': signingKeys(),
        claims: options.claims ?? [],
        ...options.plugin,
      }),
    )

    for (const client of options.clients) {
      const id = Number(
        run(
          'INSERT INTO g_client (gc_client_id, gc_name, gc_confidential, gc_enabled) VALUES (?, ?, 1, 1)',
          client.clientId,
          client.clientId,
        ).lastInsertRowid,
      )
      const properties: [string, string][] = [
        ['client_secret', client.clientSecret],
        ...client.redirectUris.map((uri): [string, string] => ['redirect_uri', uri]),
        ['authorization_type', 'code'],
        ['token_endpoint_auth_method', 'client_secret_basic'],
      ]
      for (const [name, value] of properties) {
        run(
          'INSERT INTO g_client_property (gc_id, gcp_name, gcp_value) VALUES (?, ?, ?)',
          id,
          name,
          value,
        )
      }
    }

    for (const user of options.users) {
      const id = Number(
        run(
          'INSERT INTO g_user (gu_username, gu_name, gu_email, gu_enabled) VALUES (?, ?, ?, 1)',
          user.username,
          user.name ?? '',
          user.email ?? '',
        ).lastInsertRowid,
      )
      run(
        'INSERT INTO g_user_password (gu_id, guw_password) VALUES (?, ?)',
        id,
        glewlwydPasswordHash(user.password),
      )
      for (const scope of SCOPES) {
        run(
          'INSERT INTO g_user_scope_user (gu_id, gus_id) VALUES (?, (SELECT gus_id FROM g_user_scope WHERE gus_name = ?))',
          id,
          scope,
        )
      }
      for (const [property, value] of Object.entries(user.properties ?? {})) {
        for (const each of ([] as string[]).concat(value)) {
          run(
            'INSERT INTO g_user_property (gu_id, gup_name, gup_value) VALUES (?, ?, ?)',
            id,
            property,
            each,
          )
        }
      }
    }
    db.exec('COMMIT')
  } finally {
    db.close()
  }
}

/** glewlwyd's configuration file (libconfig): the smallest that serves the API on loopback. */
const configuration = (port: number, database: string) => `port=${port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:${port}"
api_prefix="api"
log_mode="console"
log_level="WARNING"
cookie_secure=0
user_module_path="${MODULES}/user"
client_module_path="${MODULES}/client"
user_auth_scheme_module_path="${MODULES}/scheme"
plugin_module_path="${MODULES}/plugin"
database = { type = "sqlite3"; path = "${database}"; };
`

/**
 * Provider `name` registered at glewlwyd and configured in Painel, as registeredProvider does for
 * the test provider, with a client id and secret of letters only by default (`painel<name>`,
 * `segredo<name>`): glewlwyd compares HTTP Basic's credentials as sent, without undoing the
 * form-encoding RFC 6749 §2.3.1 asks of the client (openid-client sends `painel-corp` as
 * `painel%2Dcorp`), so it refuses the code exchange of a client whose id or secret has a `-`.
 */
export function glewlwydClient(
  name: string,
  publicUrl: string,
  credentials: Pick<TestClient, 'clientId' | 'clientSecret'> = {
    clientId: `painel${name}`,
    clientSecret: `segredo${name}`,
  },
): RegisteredProvider {
  return registeredProvider(name, publicUrl, credentials)
}

/** A loopback port nobody listens on now (in this process: a spawned probe costs 50 ms). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', resolve)
  })
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

const READY_TIMEOUT_MS = 30_000
const POLL_MS = 10

/** The last part of what glewlwyd printed, for a failure's message. */
function tail(text: string): string {
  return text.length > 4000 ? `…${text.slice(-4000)}` : text
}

/**
 * Every glewlwyd this process started and its folder, until stopped: a test file that crashes,
 * or forgets stop(), must not leave one running on the machine. The processes do not keep this
 * one alive (unref), so such a file still ends, and its exit kills them.
 */
const running = new Map<ChildProcess, string>()
let exitHookSet = false

function track(child: ChildProcess, folder: string) {
  running.set(child, folder)
  if (exitHookSet) return
  exitHookSet = true
  process.once('exit', () => {
    for (const [left, leftFolder] of running) {
      if (!hasExited(left)) left.kill('SIGKILL')
      rmSync(leftFolder, { recursive: true, force: true })
    }
  })
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** SIGTERM (glewlwyd closes its plugins and database), SIGKILL if it has not ended in 5 s. */
async function end(child: ChildProcess, folder: string, signal: NodeJS.Signals = 'SIGTERM') {
  if (!hasExited(child)) {
    const exited = once(child, 'exit')
    child.kill(signal)
    const force = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(force)
  }
  running.delete(child)
  await rm(folder, { recursive: true, force: true })
}

export async function startGlewlwyd(options: GlewlwydOptions): Promise<GlewlwydProvider> {
  const missing = glewlwydMissing()
  if (missing) throw new Error(`glewlwyd cannot run: ${missing}`)
  const began = performance.now()
  const folder = await mkdtemp(join(tmpdir(), 'painel-glewlwyd-'))
  let child: ChildProcess | undefined
  try {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const issuer = `${base}/api/${PLUGIN_NAME}`
    const database = join(folder, 'glewlwyd.db')
    const configFile = join(folder, 'glewlwyd.conf')
    provision(database, issuer, options)
    await writeFile(configFile, configuration(port, database))

    const spawned = performance.now()
    const started = spawn(GLEWLWYD, ['--config-file', configFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = started
    track(started, folder)
    let output = ''
    for (const stream of [started.stdout, started.stderr]) {
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()))
      ;(stream as Socket).unref()
    }
    started.unref()
    const discovery = `${issuer}/.well-known/openid-configuration`
    for (const deadline = spawned + READY_TIMEOUT_MS; ;) {
      if (hasExited(started)) {
        throw new Error(
          `glewlwyd exited (${started.exitCode ?? started.signalCode}):\n${tail(output)}`,
        )
      }
      try {
        if ((await fetch(discovery)).ok) break
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) {
        throw new Error(`glewlwyd did not answer ${discovery}:\n${tail(output)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    const ready = performance.now()

    const passwords = new Map(options.users.map((user) => [user.username, user.password]))
    return {
      issuer,
      startMs: {
        provisioning: Math.round(spawned - began),
        spawnToReady: Math.round(ready - spawned),
      },
      signIn: (authorizationUrl, username, password) =>
        signInAt(base, authorizationUrl, username, password ?? passwords.get(username) ?? ''),
      stop: () => end(started, folder),
    }
  } catch (error) {
    if (child) await end(child, folder, 'SIGKILL')
    else await rm(folder, { recursive: true, force: true })
    throw error
  }
}

/**
 * What a browser does on glewlwyd's login page (webapp/login.js): the authorization request
 * sends it to login.html with `callback_url` (the request itself) and the scopes; the page posts
 * the password to /api/auth/ (a session cookie), records the consent to the scopes for the
 * client (/api/auth/grant/<client>), and "Continue" goes back to `callback_url` with `g_continue`,
 * which redirects to the client with the code. Any redirect off glewlwyd ends the walk.
 */
async function signInAt(
  base: string,
  authorizationUrl: string | URL,
  username: string,
  password: string,
): Promise<URL> {
  const cookies = new Map<string, string>()
  const call = async (url: URL, method = 'GET', body?: unknown) => {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    const text = await response.text()
    const location = response.headers.get('location')
    return { status: response.status, text, location: location ? new URL(location, url) : null }
  }

  let url = new URL(authorizationUrl)
  for (let hop = 0; hop < 5; hop++) {
    const answer = await call(url)
    if (!answer.location) {
      throw new Error(`glewlwyd answered ${answer.status} at ${url.pathname}: ${answer.text}`)
    }
    if (answer.location.origin !== base) return answer.location
    if (!answer.location.pathname.endsWith('/login.html')) {
      url = answer.location
      continue
    }
    const page = answer.location.searchParams
    const callback = page.get('callback_url')
    const client = page.get('client_id')
    if (!callback || !client)
      throw new Error(`login.html without its callback: ${answer.location.href}`)
    const signedIn = await call(new URL('/api/auth/', base), 'POST', { username, password })
    if (signedIn.status !== 200) {
      throw new Error(`glewlwyd refused ${username}'s password (${signedIn.status})`)
    }
    const consent = await call(
      new URL(`/api/auth/grant/${encodeURIComponent(client)}`, base),
      'PUT',
      { scope: page.get('scope') ?? '' },
    )
    if (consent.status !== 200) {
      throw new Error(`glewlwyd refused the consent (${consent.status}): ${consent.text}`)
    }
    url = new URL(`${callback}${callback.includes('?') ? '&' : '?'}g_continue`, base)
  }
  throw new Error('glewlwyd redirected too many times')
}
