import {
  NAMES_AS_LABELS,
  providerLabels,
  type ProviderLabels,
} from '../../../common/provider-labels'
import { PROVIDERS_DATA_ID, readProviderButtons } from '../../../common/sign-in-providers'

/**
 * The sign-in providers' labels, from the page the server served (its providers' data block,
 * server/static/sign-in-providers-page.ts, the same the login page's buttons come from): the
 * audit events record a provider's name, and a person reads its label. Read when first asked
 * (the block does not change while the page lives); none in a page without it.
 */
let labels: ProviderLabels | undefined

export function pageProviderLabels(): ProviderLabels {
  if (labels) return labels
  if (typeof document === 'undefined') return NAMES_AS_LABELS
  const buttons = readProviderButtons(document.getElementById(PROVIDERS_DATA_ID)?.textContent)
  labels = providerLabels(buttons.map(({ name, text }) => ({ name, buttonText: text })))
  return labels
}
