import {
  PROVIDER_BUTTON_CLASS,
  PROVIDERS_CONTAINER_CLASS,
  PROVIDERS_CONTAINER_ID,
  PROVIDERS_DATA_ID,
  PROVIDERS_SLOT,
  providerStartPath,
  type SignInProviderButton,
} from '../../common/sign-in-providers'

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

/** JSON inside <script>: `<` escaped, so no `</script>` or `<!--` in a label can end it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

/**
 * The served page with the sign-in provider buttons (common/sign-in-providers.ts): the build's
 * empty slot in the prerendered form filled with one plain link per provider, and the data block
 * the hydrated page renders the same links from. No provider, or a page without the slot (a
 * build without prerendering): the page as built.
 */
export function withSignInProviders(
  html: string,
  providers: readonly SignInProviderButton[],
): string {
  if (providers.length === 0 || !html.includes(PROVIDERS_SLOT)) return html
  const links = providers
    .map(
      ({ name, text }) =>
        `<a class="${PROVIDER_BUTTON_CLASS}" href="${providerStartPath(name)}">${escapeHtml(text)}</a>`,
    )
    .join('')
  const container = `<div id="${PROVIDERS_CONTAINER_ID}" class="${PROVIDERS_CONTAINER_CLASS}">${links}</div>`
  const data = `<script type="application/json" id="${PROVIDERS_DATA_ID}">${scriptJson(providers)}</script>`
  return html.replace(PROVIDERS_SLOT, () => container).replace('</body>', () => `${data}</body>`)
}
