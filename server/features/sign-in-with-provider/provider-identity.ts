import { canonicalEmail } from '../../../common/account-rules'
import { nameProblem, normalizeName } from '../../../common/name-rules'
import { PRESETS } from '../../config/auth-provider-presets'
import type { AuthProvider, ClaimMapping } from '../../config/auth-providers'

/**
 * Who a provider says signed in, from the ID token's claims (already validated by openid-client:
 * signature, issuer, audience, expiry, nonce) and, when the provider has a UserInfo endpoint,
 * the claims it answered there (its `sub` checked equal to the token's). A person is (issuer,
 * subject) once linked; the e-mail matters only for the first link and the domain allow-list,
 * and only when the provider vouches for it.
 *
 * Which source wins (docs/single-sign-on.md, "Where the claims come from"): the ID token's, for
 * every claim it carries; UserInfo fills in the claims it lacks. OpenID Connect Core §5.4 lets a
 * provider put the `email` and `profile` claims in either (oidc-provider, Zitadel and Okta's org
 * server put them in UserInfo only; Google, Entra and gov.br in the token). The protocol's own
 * claims (iss, sub, amr, acr) come from the token alone. The e-mail and the claim that vouches
 * for it are taken together from one source, never the address from one and the vouching from
 * the other.
 */
export interface ProviderIdentity {
  /** AUTH_PROVIDERS' name of the provider. */
  provider: string
  issuer: string
  /** `sub`: the person at this issuer, for good (gov.br: the CPF; see cpf-mask.ts). */
  subject: string
  /** Normalised (common/account-rules.ts); null when absent or not an address. */
  email: string | null
  /**
   * The provider vouches for the e-mail: `email_verified` is true, or for Entra ID `xms_edov`
   * (the e-mail's domain is verified by the person's tenant), never Entra's bare `email`.
   */
  emailVerified: boolean
  /** The name to give a new account; null when absent or not a name Equipe could show. */
  name: string | null
  amr: readonly string[]
  acr: string | null
  /** amr/acr show more than one factor at the provider (trusted only with TRUST_MFA). */
  multiFactor: boolean
  /** ADMIN_CLAIM's values that are among ADMIN_VALUES. */
  adminValues: readonly string[]
  /** The role ROLE_MAP gives for ROLE_CLAIM's values (its first pair that matches); null: none. */
  roleName: string | null
  /** The team TEAM_MAP gives for TEAM_CLAIM's values, likewise. */
  teamName: string | null
}

/** OpenID's PAPE policies that name a multi-factor sign-in. */
const MULTI_FACTOR_ACR = [
  'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
  'http://schemas.openid.net/pape/policies/2007/06/multi-factor-physical',
]

/** `true` as providers write it: some send the string, Entra's optional claims a 1 at times. */
const isTrue = (value: unknown) =>
  value === true || value === 'true' || value === 1 || value === '1'

const strings = (value: unknown): string[] => {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string')
  return []
}

/** A claim by its name, or by a dotted path into nested claims when no claim has that name. */
export function claimAt(claims: Readonly<Record<string, unknown>>, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path]
  let value: unknown = claims
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/**
 * The name the map gives for the claim's values: the first pair of the map (not of the claim,
 * whose order a provider does not promise) whose value the claim holds.
 */
function mappedName(
  claims: Readonly<Record<string, unknown>>,
  claim: string | null,
  map: readonly ClaimMapping[],
): string | null {
  if (claim === null) return null
  const values = strings(claimAt(claims, claim))
  return map.find((pair) => values.includes(pair.value))?.name ?? null
}

type Claims = Readonly<Record<string, unknown>>

/** Claims UserInfo never adds: the protocol's, and the e-mail (read with its vouching below). */
const TOKEN_ONLY_CLAIMS = new Set(['iss', 'sub', 'aud', 'amr', 'acr', 'email'])

/** The ID token's claims with UserInfo's beneath them: a claim the token has hides UserInfo's. */
function withUserInfo(idToken: Claims, userInfo: Claims | null): Claims {
  if (userInfo === null) return idToken
  const beneath = Object.entries(userInfo).filter(([claim]) => !TOKEN_ONLY_CLAIMS.has(claim))
  return { ...Object.fromEntries(beneath), ...idToken }
}

export function identityFromClaims(
  provider: AuthProvider,
  idToken: Claims,
  userInfo: Claims | null = null,
): ProviderIdentity {
  const rules = PRESETS[provider.preset]
  const claims = withUserInfo(idToken, userInfo)
  // The address and its vouching from the same source: the token when it names an address.
  const emailSource = typeof idToken.email === 'string' || userInfo === null ? idToken : userInfo
  const email = typeof emailSource.email === 'string' ? canonicalEmail(emailSource.email) : null
  const rawName = typeof claims.name === 'string' ? normalizeName(claims.name) : null
  const amr = strings(idToken.amr)
  const acr = typeof idToken.acr === 'string' ? idToken.acr : null
  const wanted = provider.adminClaim
  const adminValues =
    wanted === null
      ? []
      : strings(claimAt(claims, wanted)).filter((value) => provider.adminValues.includes(value))
  return {
    provider: provider.name,
    issuer: String(idToken.iss),
    subject: String(idToken.sub),
    email,
    emailVerified: email !== null && isTrue(emailSource[rules.emailVerifiedClaim]),
    name: rawName !== null && nameProblem(rawName) === null ? rawName : null,
    amr,
    acr,
    multiFactor:
      amr.some((method) => rules.multiFactorAmr.includes(method)) ||
      (acr !== null && MULTI_FACTOR_ACR.includes(acr)),
    adminValues: [...new Set(adminValues)],
    roleName: mappedName(claims, provider.roleClaim, provider.roleMap),
    teamName: mappedName(claims, provider.teamClaim, provider.teamMap),
  }
}
