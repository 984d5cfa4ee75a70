/**
 * What each kind of OpenID Connect provider needs from Painel (AUTH_<NAME>_PRESET): the scopes
 * asked for, which claims say the e-mail is verified, the button's words and mark, and which
 * `amr` values show a second factor. docs/single-sign-on.md explains each one's setup.
 */

export const PROVIDER_PRESETS = ['google', 'entra', 'govbr', 'generic'] as const
export type ProviderPreset = (typeof PROVIDER_PRESETS)[number]

import type { ProviderMark } from '../../common/provider-marks'

/** The small picture beside the button's words (common/provider-marks.ts draws it). */
export type { ProviderMark }

export interface PresetRules {
  scopes: readonly string[]
  /**
   * The claim whose `true` makes the `email` claim one we may link an existing account by.
   * Entra ID has no `email_verified`: its `email` is whatever the user's tenant wrote, so only
   * `xms_edov` (the e-mail's domain is verified by that tenant) counts (the nOAuth takeover).
   */
  emailVerifiedClaim: 'email_verified' | 'xms_edov'
  /** The button's words without a LABEL; null: "Entrar com <LABEL or the provider's name>". */
  buttonText: string | null
  mark: ProviderMark
  /** LABEL may not change the words (gov.br's brand rules fix them). */
  fixedButtonText: boolean
  /** Refuse the provider when its metadata does not offer PKCE with S256 (gov.br requires it). */
  requiresPkce: boolean
  /** `sub` is a person's CPF: masked wherever it is shown, never logged. */
  subjectIsCpf: boolean
  /** `amr` values (RFC 8176 and the provider's own) that alone show more than one factor. */
  multiFactorAmr: readonly string[]
  /** The issuer every such provider has, when it has one (ISSUER_URL may then be left out). */
  defaultIssuerUrl: string | null
}

/** RFC 8176: `mfa` says it outright; `hwk`/`sc` are keys that need a PIN or touch, `mca` channels. */
const STANDARD_MULTI_FACTOR_AMR = ['mfa', 'mca', 'hwk', 'sc'] as const

export const PRESETS: Readonly<Record<ProviderPreset, PresetRules>> = {
  google: {
    scopes: ['openid', 'email', 'profile'],
    emailVerifiedClaim: 'email_verified',
    buttonText: 'Entrar com Google',
    mark: 'google',
    fixedButtonText: false,
    requiresPkce: false,
    subjectIsCpf: false,
    // Google's ID tokens carry no amr: its 2-Step Verification is never visible to us.
    multiFactorAmr: STANDARD_MULTI_FACTOR_AMR,
    defaultIssuerUrl: 'https://accounts.google.com',
  },
  entra: {
    scopes: ['openid', 'email', 'profile'],
    emailVerifiedClaim: 'xms_edov',
    buttonText: 'Entrar com Microsoft',
    mark: 'microsoft',
    fixedButtonText: false,
    requiresPkce: false,
    subjectIsCpf: false,
    multiFactorAmr: STANDARD_MULTI_FACTOR_AMR,
    defaultIssuerUrl: null,
  },
  govbr: {
    // govbr_confiabilidades: the account's trust levels (bronze, prata, ouro), for later use.
    scopes: ['openid', 'email', 'profile', 'govbr_confiabilidades'],
    emailVerifiedClaim: 'email_verified',
    buttonText: 'Entrar com gov.br',
    mark: 'govbr',
    fixedButtonText: true,
    requiresPkce: true,
    subjectIsCpf: true,
    // gov.br's amr: `x509` a digital certificate (a card or token with its PIN), `mfa` a second step.
    multiFactorAmr: ['mfa', 'x509'],
    defaultIssuerUrl: null,
  },
  generic: {
    scopes: ['openid', 'email', 'profile'],
    emailVerifiedClaim: 'email_verified',
    buttonText: null,
    mark: 'key',
    fixedButtonText: false,
    requiresPkce: false,
    subjectIsCpf: false,
    multiFactorAmr: STANDARD_MULTI_FACTOR_AMR,
    defaultIssuerUrl: null,
  },
}

/** The button's words: the preset's, or "Entrar com" and the LABEL (else the provider's name). */
export function buttonText(preset: ProviderPreset, name: string, label: string | null): string {
  const rules = PRESETS[preset]
  if (label !== null && !rules.fixedButtonText) return `Entrar com ${label}`
  return rules.buttonText ?? `Entrar com ${name}`
}
