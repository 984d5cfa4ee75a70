import { isProviderMark, type ProviderMark } from './provider-marks'

/**
 * The login page's sign-in provider buttons (docs/single-sign-on.md). The providers are runtime
 * configuration, so the server writes them into the page it serves
 * (server/static/sign-in-providers-page.ts): plain links in the prerendered sign-in markup, which
 * work before any script, and a JSON data block (not executed: no CSP change) from which the
 * hydrated page renders the same links (client/src/features/sign-in/provider-buttons.tsx).
 */
export interface SignInProviderButton {
  /** AUTH_PROVIDERS' name: the path's `/api/auth/oidc/<name>/start`. */
  name: string
  /** "Entrar com …" */
  text: string
  /** The mark beside the words (common/provider-marks.ts). */
  mark: ProviderMark
}

/** The element that holds the buttons; empty in the build, filled by the server. */
export const PROVIDERS_CONTAINER_ID = 'painel-sign-in-providers'
/** What the prerendered page holds in its place: the server fills it. */
export const PROVIDERS_SLOT = `<div id="${PROVIDERS_CONTAINER_ID}"></div>`
/**
 * A button's classes: those of the passkey button above them. Only classes the prerendered page
 * already uses: its inline CSS is purged of any other (scripts/build/purge-css.ts), and these
 * links are written after the build.
 */
export const PROVIDER_BUTTON_CLASS =
  'btn btn-outline-secondary w-100 mt-3 d-flex align-items-center justify-content-center gap-2'
/** The `<script type="application/json">` with the buttons, for the hydrated page. */
export const PROVIDERS_DATA_ID = 'painel-providers'

export const providerStartPath = (name: string) => `/api/auth/oidc/${name}/start`

/** The data block's content, read back: anything else than a list of buttons is none. */
export function readProviderButtons(json: string | null | undefined): SignInProviderButton[] {
  if (!json) return []
  try {
    const value: unknown = JSON.parse(json)
    if (!Array.isArray(value)) return []
    return value.filter(
      (item): item is SignInProviderButton =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as SignInProviderButton).name === 'string' &&
        /^[a-z][a-z0-9]{0,31}$/.test((item as SignInProviderButton).name) &&
        typeof (item as SignInProviderButton).text === 'string' &&
        isProviderMark((item as SignInProviderButton).mark),
    )
  } catch {
    return []
  }
}

/**
 * PASSWORD_SIGN_IN=off: the server marks #root with this attribute, and its inline style hides
 * what has this class (the password form, registration) and shows the toggle that reveals the
 * form for the first admin, the one who keeps a password (docs/single-sign-on.md).
 */
export const PASSWORD_SIGN_IN_ATTRIBUTE = 'data-password-sign-in'
export const PASSWORD_PART_CLASS = 'painel-password-part'
export const PASSWORD_TOGGLE_CLASS = 'painel-password-toggle'
/** Hidden whatever the toggle: registration is closed (the server refuses it too). */
export const REGISTRATION_CLASS = 'painel-registration'
/** The attribute's value once the toggle is pressed: the form shows, registration stays hidden. */
export const PASSWORD_FORM_OPENED = 'admin'
