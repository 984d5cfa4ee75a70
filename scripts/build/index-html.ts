/**
 * The page: client/index.html with the hashed files of this build put in its <head>, and the
 * prerendered sign-in page (prerender.ts) in its #root.
 */
import {
  BOOT_SPINNER_CLASS,
  APP_SCRIPTS_META,
  APP_STYLESHEET_META,
  PRERENDERED_ATTRIBUTE,
  PRERENDERED_VALUE,
  type PrerenderedSignIn,
} from '../../client/src/prerender/prerender-markup'

export const HEAD_MARKER = '<!-- build:head -->'
export const ROOT_ELEMENT = '<div id="root"></div>'

export interface PageAssets {
  /** Classic script that puts the colour mode on <html> before the first paint. */
  colorModeScript: string
  /**
   * That script's text, to put in the page instead of its URL: with the sign-in page prerendered,
   * its own request was the whole remaining wait before the first paint (docs/performance.md).
   * The server allows exactly this text by its hash (server/http/security.ts).
   */
  inlineColorModeScript?: string
  stylesheets: readonly string[]
  entryScript: string
  /** The entry's static imports: fetched in parallel with it instead of after it. */
  modulePreloads: readonly string[]
  favicon: string
  /** The sign-in page for #root; none in a build without prerendering (`--no-prerender`). */
  prerendered?: PrerenderedSignIn
  /**
   * The CSS of everything the sign-in page can show (critical-css.ts), inline in <head> instead
   * of the linked stylesheet, which the app then fetches for any other page. Only with
   * `prerendered`: without the form in the HTML, there is nothing for it to paint.
   */
  inlineStyle?: string
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

export function renderIndexHtml(template: string, assets: PageAssets): string {
  if (!template.includes(HEAD_MARKER)) {
    throw new Error(`client/index.html has no ${HEAD_MARKER} marker to put the build's files at`)
  }
  if (assets.inlineStyle !== undefined && !assets.prerendered) {
    throw new Error('an inline style is only for the prerendered sign-in page')
  }
  // The server allows this very text by its hash (server/http/security.ts); a "</style" in it
  // would end the element early and the rest would be painted as text.
  if (assets.inlineStyle?.toLowerCase().includes('</style')) {
    throw new Error('the inline style contains "</style"')
  }
  if (assets.inlineColorModeScript !== undefined && !assets.prerendered) {
    throw new Error('an inline boot script is only for the prerendered sign-in page')
  }
  // Likewise for the script: "</script" in it would end the element early. (esbuild writes it
  // escaped in strings and regular expressions: "<\/script".)
  if (assets.inlineColorModeScript?.toLowerCase().includes('</script')) {
    throw new Error('the inline boot script contains "</script"')
  }
  if (assets.inlineStyle !== undefined && assets.stylesheets.length !== 1) {
    throw new Error(`the app fetches one stylesheet, the build made ${assets.stylesheets.length}`)
  }
  // The inline CSS paints the sign-in page; the whole stylesheet is named for the app to fetch
  // when it shows anything else (client/src/prerender/app-stylesheet.ts).
  const styles =
    assets.inlineStyle === undefined
      ? assets.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`)
      : [
          `<style>${assets.inlineStyle}</style>`,
          `<meta name="${APP_STYLESHEET_META}" content="${escapeAttribute(assets.stylesheets[0] ?? '')}">`,
        ]
  // With the sign-in page in the HTML, the first paint needs the stylesheet and not the app: the
  // page only names the app's scripts, and the boot script fetches and runs them once the form is
  // painted (client/src/prerender/start-after-paint.ts says why). Without it, the entry is a
  // module script and its static imports are preloaded, fetched in parallel with it.
  const scripts = assets.prerendered
    ? [
        `<meta name="${APP_SCRIPTS_META}" content="${escapeAttribute([assets.entryScript, ...assets.modulePreloads].join(' '))}">`,
      ]
    : [
        ...assets.modulePreloads.map(
          (href) => `<link rel="modulepreload" href="${escapeAttribute(href)}">`,
        ),
        `<script type="module" src="${escapeAttribute(assets.entryScript)}"></script>`,
      ]
  const tags = [
    `<link rel="icon" type="image/svg+xml" href="${escapeAttribute(assets.favicon)}">`,
    assets.inlineColorModeScript === undefined
      ? `<script src="${escapeAttribute(assets.colorModeScript)}"></script>`
      : `<script>${assets.inlineColorModeScript}</script>`,
    ...styles,
    ...scripts,
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
