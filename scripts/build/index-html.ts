/**
 * The page: client/index.html with the hashed files of this build put in its <head>, and the
 * prerendered sign-in page (prerender.ts) in its #root.
 */
import {
  BOOT_SPINNER_CLASS,
  ENTRY_ATTRIBUTE,
  PRERENDERED_ATTRIBUTE,
  PRERENDERED_VALUE,
  type PrerenderedSignIn,
} from '../../client/src/prerender/prerender-markup'

export const HEAD_MARKER = '<!-- build:head -->'
export const ROOT_ELEMENT = '<div id="root"></div>'

export interface PageAssets {
  /** Classic script that puts the colour mode on <html> before the first paint. */
  colorModeScript: string
  stylesheets: readonly string[]
  entryScript: string
  /** The entry's static imports: fetched in parallel with it instead of after it. */
  modulePreloads: readonly string[]
  favicon: string
  /** The sign-in page for #root; none in a build without prerendering (`--no-prerender`). */
  prerendered?: PrerenderedSignIn
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

export function renderIndexHtml(template: string, assets: PageAssets): string {
  if (!template.includes(HEAD_MARKER)) {
    throw new Error(`client/index.html has no ${HEAD_MARKER} marker to put the build's files at`)
  }
  // With the sign-in page in the HTML, the first paint needs the stylesheet and not the app: its
  // scripts are fetched at low priority, so on a slow link they do not take the stylesheet's
  // bandwidth (Chromium holds low-priority requests back while render-blocking ones load), and
  // the entry is only preloaded: the boot script runs it after the first paint
  // (client/src/prerender/start-after-paint.ts), so a script that arrived early cannot hold the
  // paint back while it runs.
  const priority = assets.prerendered ? ' fetchpriority="low"' : ''
  const entry = escapeAttribute(assets.entryScript)
  const tags = [
    `<link rel="icon" type="image/svg+xml" href="${escapeAttribute(assets.favicon)}">`,
    `<script src="${escapeAttribute(assets.colorModeScript)}"></script>`,
    ...assets.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`),
    ...assets.modulePreloads.map(
      (href) => `<link rel="modulepreload" href="${escapeAttribute(href)}"${priority}>`,
    ),
    assets.prerendered
      ? `<link rel="modulepreload" href="${entry}"${priority} ${ENTRY_ATTRIBUTE}>`
      : `<script type="module" src="${entry}"></script>`,
  ]
  const page = template.replace(HEAD_MARKER, tags.join('\n    '))
  if (!assets.prerendered) return page
  if (!page.includes(ROOT_ELEMENT)) {
    throw new Error(
      `client/index.html has no empty ${ROOT_ELEMENT} to prerender the sign-in page in`,
    )
  }
  // The spinner is a sibling, not a child: #root must hold exactly what React hydrates.
  const { page: signIn, spinner } = assets.prerendered
  return page.replace(
    ROOT_ELEMENT,
    `<div id="root" ${PRERENDERED_ATTRIBUTE}="${PRERENDERED_VALUE}">${signIn}</div>` +
      `<div class="${BOOT_SPINNER_CLASS}">${spinner}</div>`,
  )
}
