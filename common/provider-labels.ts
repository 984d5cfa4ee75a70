/**
 * A sign-in provider as people know it: its label (AUTH_<NAME>_LABEL, or the preset's brand:
 * "Google", "gov.br"), never the name AUTH_PROVIDERS gives it ("corp", "idt"), which is the
 * operator's. The audit log records the name (labels are configuration and may change); what a
 * person reads looks the label up at the time of reading: the server from its configuration
 * (server/config/auth-providers.ts), the client from the served page's providers
 * (common/sign-in-providers.ts). A name no longer configured is said as it is: nothing better is
 * known of it.
 */
export type ProviderLabels = (name: string) => string

/** The label inside a button's words: "Entrar com Conta Corporativa" → "Conta Corporativa". */
export const labelOfButtonText = (text: string) => text.replace(/^Entrar com\s+/, '')

/** The lookup for these providers: each one's name and its button's words. */
export function providerLabels(
  providers: readonly { name: string; buttonText: string }[],
): ProviderLabels {
  const labels = new Map(
    providers.map(({ name, buttonText }) => [name, labelOfButtonText(buttonText)]),
  )
  return (name) => labels.get(name) ?? name
}

/** No provider configured, or none known (a test of words alone): names said as they are. */
export const NAMES_AS_LABELS: ProviderLabels = (name) => name
