import { isValidEmail, normalizeEmail } from '../../../common/account-rules'
import { nameProblem, normalizeName } from '../../../common/name-rules'
import { PRESETS } from '../../config/auth-provider-presets'
import type { AuthProvider, ClaimMapping } from '../../config/auth-providers'

/**
 * Who a provider says signed in, from the ID token's claims (already validated by openid-client:
 * signature, issuer, audience, expiry, nonce). A person is (issuer, subject) once linked; the
 * e-mail matters only for the first link and the domain allow-list, and only when the provider
 * vouches for it.
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

export function identityFromClaims(
  provider: AuthProvider,
  claims: Readonly<Record<string, unknown>>,
): ProviderIdentity {
  const rules = PRESETS[provider.preset]
  const rawEmail = typeof claims.email === 'string' ? normalizeEmail(claims.email) : null
  const email = rawEmail !== null && isValidEmail(rawEmail) ? rawEmail : null
  const rawName = typeof claims.name === 'string' ? normalizeName(claims.name) : null
  const amr = strings(claims.amr)
  const acr = typeof claims.acr === 'string' ? claims.acr : null
  const wanted = provider.adminClaim
  const adminValues =
    wanted === null
      ? []
      : strings(claimAt(claims, wanted)).filter((value) => provider.adminValues.includes(value))
  return {
    provider: provider.name,
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email,
    emailVerified: email !== null && isTrue(claims[rules.emailVerifiedClaim]),
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
