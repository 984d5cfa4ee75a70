import { isIP } from 'node:net'
import {
  buttonText,
  PRESETS,
  PROVIDER_PRESETS,
  type ProviderMark,
  type ProviderPreset,
} from './auth-provider-presets'
import { ROLE_NAME_MAX_LENGTH, TEAM_NAME_MAX_LENGTH } from '../../common/role-limits'
import { quote, type Env, type EnvReader } from './env-reader'
import { providerLabels } from '../../common/provider-labels'

/**
 * Single sign-on's settings (docs/single-sign-on.md): AUTH_PROVIDERS names the providers, and
 * each has its AUTH_<NAME>_… variables. Read with config.ts's EnvReader, so every problem is one
 * more line of the same start-up refusal (exit 78); config.ts takes it in with
 * `...readSingleSignOn(read, env)` and `extends SingleSignOnConfig`.
 */

export interface AuthProvider {
  /** As in AUTH_PROVIDERS, lower-cased: the path's `/api/auth/oidc/<name>/…` and the audit's method. */
  name: string
  /** The issuer identifier; discovery reads `<issuerUrl>/.well-known/openid-configuration`. */
  issuerUrl: string
  clientId: string
  clientSecret: string
  preset: ProviderPreset
  /** The words on the login page's button, e.g. "Entrar com Google". */
  buttonText: string
  mark: ProviderMark
  scopes: readonly string[]
  /** E-mail domains allowed to sign in, lower-cased; empty: any. */
  allowedDomains: readonly string[]
  /** New people are created active (true) or pending an admin's approval (false, the default). */
  autoApprove: boolean
  /** The claim (e.g. `groups`, `roles`, `realm_access.roles`) and the values that make an admin. */
  adminClaim: string | null
  adminValues: readonly string[]
  /**
   * ROLE_CLAIM and ROLE_MAP: the claim whose values name the person's role, and the values to
   * roles' names in the map's order (the first pair whose value the claim holds decides).
   */
  roleClaim: string | null
  roleMap: readonly ClaimMapping[]
  /** TEAM_CLAIM and TEAM_MAP, likewise to teams' names. */
  teamClaim: string | null
  teamMap: readonly ClaimMapping[]
  /** A multi-factor sign-in at the provider (amr/acr) satisfies MFA_REQUIRED. */
  trustMfa: boolean
}

/** One `value=Name` pair of a ROLE_MAP or TEAM_MAP. */
export interface ClaimMapping {
  /** A value of the claim, compared exactly (`painel-gestores`, an Entra group's object id). */
  value: string
  /** A role's or a team's name, looked up in the database at each sign-in (server/db/name-key.ts). */
  name: string
}

export interface SingleSignOnConfig {
  authProviders: readonly AuthProvider[]
  /** PASSWORD_SIGN_IN=off: only ADMIN_EMAIL signs in with a password (docs/single-sign-on.md). */
  passwordSignIn: boolean
}

/** The per-provider variables, after `AUTH_<NAME>_`. */
export const PROVIDER_SETTINGS = [
  'ISSUER_URL',
  'CLIENT_ID',
  'CLIENT_SECRET',
  'PRESET',
  'LABEL',
  'ALLOWED_DOMAINS',
  'AUTO_APPROVE',
  'ADMIN_CLAIM',
  'ADMIN_VALUES',
  'ROLE_CLAIM',
  'ROLE_MAP',
  'TEAM_CLAIM',
  'TEAM_MAP',
  'TRUST_MFA',
] as const

/** Letters and digits: it becomes part of variable names and of a URL path. */
const PROVIDER_NAME = /^[a-z][a-z0-9]{0,31}$/
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']
const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/
/** A claim's name, or a dotted path into nested claims (Keycloak's `realm_access.roles`). */
const CLAIM_NAME = /^[A-Za-z0-9_:/.-]{1,100}$/
const PRINTABLE_LABEL = /^[^\p{Cc}\p{Cf}]{1,40}$/u
/** Entra's multi-tenant endpoints: any tenant's users, with any e-mail their admin types. */
const ENTRA_SHARED_TENANTS = ['common', 'organizations', 'consumers']

const variable = (name: string, setting: (typeof PROVIDER_SETTINGS)[number]) =>
  `AUTH_${name.toUpperCase()}_${setting}`

/** A comma-separated list, blanks dropped. */
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

export function readSingleSignOn(read: EnvReader, env: Env): SingleSignOnConfig {
  const names = providerNames(read)
  const authProviders = names.flatMap((name) => {
    const provider = readProvider(read, name)
    return provider ? [provider] : []
  })
  reportStrayVariables(read, env, names)
  const passwordSignIn = read.oneOf('PASSWORD_SIGN_IN', ['on', 'off'] as const, 'on') === 'on'
  if (!passwordSignIn && names.length === 0) {
    read.problems.push(
      'PASSWORD_SIGN_IN=off needs a provider in AUTH_PROVIDERS: nobody but ADMIN_EMAIL could sign in',
    )
  }
  return { authProviders, passwordSignIn }
}

function providerNames(read: EnvReader): string[] {
  const raw = read.raw('AUTH_PROVIDERS')
  const names: string[] = []
  for (const entry of list(raw)) {
    const name = entry.toLowerCase()
    if (!PROVIDER_NAME.test(name)) {
      read.problems.push(
        `AUTH_PROVIDERS=${quote(raw ?? '')}: ${quote(entry)} is not a provider name: use a letter, then letters and digits (32 at most)`,
      )
    } else if (names.includes(name)) {
      read.problems.push(`AUTH_PROVIDERS=${quote(raw ?? '')} names ${quote(name)} twice`)
    } else {
      names.push(name)
    }
  }
  return names
}

function readProvider(read: EnvReader, name: string): AuthProvider | null {
  const before = read.problems.length
  const preset = read.oneOf(variable(name, 'PRESET'), PROVIDER_PRESETS, 'generic')
  const rules = PRESETS[preset]
  const issuerUrl = readIssuerUrl(read, name, preset)
  const clientId = required(read, name, 'CLIENT_ID', false)
  const clientSecret = required(read, name, 'CLIENT_SECRET', true)
  const label = read.matching(
    variable(name, 'LABEL'),
    (value) => PRINTABLE_LABEL.test(value),
    'is not a button label: 1 to 40 characters, no control characters',
  )
  if (label !== null && rules.fixedButtonText) {
    read.problems.push(
      `${variable(name, 'LABEL')}=${quote(label)}: the ${preset} preset's button keeps its brand's words (${quote(rules.buttonText ?? '')}); remove the LABEL`,
    )
  }
  const allowedDomains = readDomains(read, name)
  const adminClaim = read.matching(
    variable(name, 'ADMIN_CLAIM'),
    (value) => CLAIM_NAME.test(value),
    'is not a claim name (letters, digits and _ : / . -, 100 at most)',
  )
  const adminValues = list(read.raw(variable(name, 'ADMIN_VALUES')))
  if (adminClaim !== null && adminValues.length === 0) {
    read.problems.push(
      `${variable(name, 'ADMIN_CLAIM')} is set without ${variable(name, 'ADMIN_VALUES')}: name the values that make an admin`,
    )
  }
  if (adminValues.length > 0 && read.raw(variable(name, 'ADMIN_CLAIM')) === undefined) {
    read.problems.push(
      `${variable(name, 'ADMIN_VALUES')} is set without ${variable(name, 'ADMIN_CLAIM')}: name the claim that holds them`,
    )
  }
  const role = readClaimMap(read, name, 'ROLE')
  const team = readClaimMap(read, name, 'TEAM')
  const autoApprove = read.flag(variable(name, 'AUTO_APPROVE'), false)
  const trustMfa = read.flag(variable(name, 'TRUST_MFA'), false)
  if (read.problems.length > before || !issuerUrl || !clientId || !clientSecret) return null
  return {
    name,
    issuerUrl,
    clientId,
    clientSecret,
    preset,
    buttonText: buttonText(preset, name, label),
    mark: rules.mark,
    scopes: rules.scopes,
    allowedDomains,
    autoApprove,
    adminClaim,
    adminValues,
    roleClaim: role.claim,
    roleMap: role.map,
    teamClaim: team.claim,
    teamMap: team.map,
    trustMfa,
  }
}

/** A role's and a team's name are at most this long (common/api/roles.ts): a longer one names none. */
const MAPPED_NAME_MAX_LENGTH = Math.max(ROLE_NAME_MAX_LENGTH, TEAM_NAME_MAX_LENGTH)

/**
 * ROLE_CLAIM with ROLE_MAP, or TEAM_CLAIM with TEAM_MAP (both or neither): the map is
 * `value=Name` pairs separated by `;`, in the order they are tried. A value ends at the last `=`,
 * so it may hold one (an LDAP group's `cn=painel,ou=groups`); a name cannot. The names are not
 * checked here: roles and teams live in the database and change while the server runs.
 */
function readClaimMap(
  read: EnvReader,
  name: string,
  kind: 'ROLE' | 'TEAM',
): { claim: string | null; map: ClaimMapping[] } {
  const claimSetting = variable(name, `${kind}_CLAIM`)
  const mapSetting = variable(name, `${kind}_MAP`)
  const what = kind === 'ROLE' ? 'Role name' : 'Team name'
  const claim = read.matching(
    claimSetting,
    (value) => CLAIM_NAME.test(value),
    'is not a claim name (letters, digits and _ : / . -, 100 at most)',
  )
  const raw = read.raw(mapSetting)
  if (read.raw(claimSetting) !== undefined && raw === undefined) {
    read.problems.push(
      `${claimSetting} is set without ${mapSetting}: map the claim's values, e.g. ${mapSetting}=painel-gestores=${kind === 'ROLE' ? 'Gestor de equipe' : 'Vendas'}`,
    )
  }
  if (raw === undefined) return { claim, map: [] }
  if (read.raw(claimSetting) === undefined) {
    read.problems.push(
      `${mapSetting} is set without ${claimSetting}: name the claim that holds the values`,
    )
  }
  const map: ClaimMapping[] = []
  for (const pair of raw.split(';').map((item) => item.trim())) {
    if (pair === '') continue
    const at = pair.lastIndexOf('=')
    const value = pair.slice(0, Math.max(at, 0)).trim()
    const mapped = pair.slice(at + 1).trim()
    if (at < 0 || value === '' || mapped === '' || mapped.length > MAPPED_NAME_MAX_LENGTH) {
      read.problems.push(
        `${mapSetting}: ${quote(pair)} is not a value=${what} pair (pairs separated by ;, names of ${MAPPED_NAME_MAX_LENGTH} characters at most)`,
      )
    } else if (map.some((earlier) => earlier.value === value)) {
      read.problems.push(
        `${mapSetting} maps ${quote(value)} twice: keep one pair (the first that matches decides)`,
      )
    } else {
      map.push({ value, name: mapped })
    }
  }
  if (map.length === 0 && raw.split(';').every((pair) => pair.trim() === '')) {
    read.problems.push(`${mapSetting}=${quote(raw)} has no value=${what} pair`)
  }
  return { claim, map }
}

function required(
  read: EnvReader,
  name: string,
  setting: 'CLIENT_ID' | 'CLIENT_SECRET',
  secret: boolean,
): string | null {
  const value = read.matching(
    variable(name, setting),
    // eslint-disable-next-line no-control-regex -- a control character here is a paste gone wrong
    (raw) => raw.length <= 2000 && !/[\u0000-\u001f\u007f]/.test(raw),
    'has control characters or is longer than 2000 characters',
    secret,
  )
  if (value === null && read.raw(variable(name, setting)) === undefined) {
    read.problems.push(
      `${variable(name, setting)} is not set: ${name} is in AUTH_PROVIDERS and needs it (the provider gives it when Painel is registered there)`,
    )
  }
  return value
}

/**
 * The issuer identifier: https (http only for a provider on this machine, as in the tests), no
 * query or fragment (OpenID Connect Discovery 1.0 §2). Kept as written: discovery compares it with
 * the provider's own `issuer`, where a trailing slash matters.
 */
function readIssuerUrl(read: EnvReader, name: string, preset: ProviderPreset): string | null {
  const setting = variable(name, 'ISSUER_URL')
  const value = read.raw(setting)
  if (value === undefined) {
    const fallback = PRESETS[preset].defaultIssuerUrl
    if (fallback) return fallback
    read.problems.push(
      `${setting} is not set: ${name} is in AUTH_PROVIDERS and needs its issuer (discovery reads <issuer>/.well-known/openid-configuration)`,
    )
    return null
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    read.problems.push(`${setting}=${quote(value)} is not a URL`)
    return null
  }
  const loopback =
    LOOPBACK_HOSTS.includes(url.hostname) ||
    (isIP(url.hostname) === 4 && url.hostname.startsWith('127.'))
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    read.problems.push(
      `${setting}=${quote(value)} must start with https:// (http:// only for a provider on this machine)`,
    )
    return null
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    read.problems.push(
      `${setting}=${quote(value)} is not an issuer: no query, fragment or user name in it`,
    )
    return null
  }
  const tenant = url.pathname.split('/')[1]?.toLowerCase() ?? ''
  if (
    preset === 'entra' &&
    url.hostname === 'login.microsoftonline.com' &&
    ENTRA_SHARED_TENANTS.includes(tenant)
  ) {
    read.problems.push(
      `${setting}=${quote(value)} is Entra's multi-tenant endpoint: use your tenant's issuer, https://login.microsoftonline.com/<tenant id>/v2.0`,
    )
    return null
  }
  return value
}

function readDomains(read: EnvReader, name: string): string[] {
  const setting = variable(name, 'ALLOWED_DOMAINS')
  const raw = read.raw(setting)
  const domains = list(raw).map((domain) => domain.replace(/^@/, '').toLowerCase())
  const bad = domains.filter((domain) => !DOMAIN.test(domain))
  if (bad.length > 0) {
    read.problems.push(
      `${setting}=${quote(raw ?? '')} is not a list of e-mail domains (${bad.map(quote).join(', ')} not understood): use e.g. example.com,example.org`,
    )
    return []
  }
  return [...new Set(domains)]
}

/** AUTH_<X>_CLIENT_ID and the like for a name not in AUTH_PROVIDERS: a typo would be ignored. */
function reportStrayVariables(read: EnvReader, env: Env, names: readonly string[]): void {
  const settings = PROVIDER_SETTINGS.join('|')
  const pattern = new RegExp(`^AUTH_([A-Z0-9]+)_(${settings})$`)
  for (const key of Object.keys(env).sort()) {
    const match = pattern.exec(key)
    if (!match || read.raw(key) === undefined) continue
    const name = (match[1] ?? '').toLowerCase()
    if (!names.includes(name)) {
      read.problems.push(
        `${key} is set but ${quote(name)} is not in AUTH_PROVIDERS (${names.length > 0 ? names.join(',') : 'empty'}): add it there or remove the variable`,
      )
    }
  }
}

/**
 * A provider as people know it: its button's words without "Entrar com " ("Google", "gov.br"),
 * or its name when it is no longer configured (a link made before it was removed).
 */
export function providerLabel(name: string, providers: readonly AuthProvider[]): string {
  return providerLabels(providers)(name)
}
