import {
  PASSWORD_PART_CLASS,
  PASSWORD_SIGN_IN_ATTRIBUTE,
  PASSWORD_TOGGLE_CLASS,
  REGISTRATION_CLASS,
  PROVIDER_BUTTON_CLASS,
  PROVIDERS_CONTAINER_ID,
  PROVIDERS_DATA_ID,
  PROVIDERS_SLOT,
  providerStartPath,
  type SignInProviderButton,
} from '../../common/sign-in-providers'
import { escapeHtml } from '../../common/escape-html'
import { MARK_SHAPES, MARK_SVG_ATTRIBUTES, type ProviderMark } from '../../common/provider-marks'

/** JSON inside <script>: `<` escaped, so no `</script>` or `<!--` in a label can end it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

const attributes = (values: Readonly<Record<string, string>>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('')

/** A provider's mark as SVG markup: the same shapes the hydrated page renders. */
export function markSvg(mark: ProviderMark): string {
  const shapes = MARK_SHAPES[mark]
    .map(({ element, attributes: own }) => `<${element}${attributes(own)}/>`)
    .join('')
  return `<svg${attributes(MARK_SVG_ATTRIBUTES)}>${shapes}</svg>`
}

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
      ({ name, text, mark }) =>
        `<a class="${PROVIDER_BUTTON_CLASS}" href="${providerStartPath(name)}">${markSvg(mark)}${escapeHtml(text)}</a>`,
    )
    .join('')
  const container = `<div id="${PROVIDERS_CONTAINER_ID}">${links}</div>`
  const data = `<script type="application/json" id="${PROVIDERS_DATA_ID}">${scriptJson(providers)}</script>`
  return html.replace(PROVIDERS_SLOT, () => container).replace('</body>', () => `${data}</body>`)
}

/** The page's own #root, as the build writes it (scripts/build/index-html.ts). */
const ROOT_OPENING = '<div id="root"'

/**
 * PASSWORD_SIGN_IN=off: #root marked, and a style (allowed by its hash like the build's own:
 * server/http/security.ts) that hides the password parts of the sign-in page and shows the
 * toggle for the first admin's password. Before any script the links to the providers are the
 * page; the toggle works once the app has hydrated it.
 */
export function withoutPasswordSignIn(html: string): string {
  if (!html.includes(ROOT_OPENING) || !html.includes('</head>')) return html
  const root = `#root[${PASSWORD_SIGN_IN_ATTRIBUTE}=off]`
  const style = `<style>${root} .${PASSWORD_PART_CLASS},#root[${PASSWORD_SIGN_IN_ATTRIBUTE}] .${REGISTRATION_CLASS}{display:none!important}${root} .${PASSWORD_TOGGLE_CLASS}{display:inline-block!important}</style>`
  return html
    .replace(ROOT_OPENING, () => `${ROOT_OPENING} ${PASSWORD_SIGN_IN_ATTRIBUTE}="off"`)
    .replace('</head>', () => `${style}</head>`)
}
