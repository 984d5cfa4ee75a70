/** The page: client/index.html with the hashed files of this build put in its <head>. */

export const HEAD_MARKER = '<!-- build:head -->'

export interface PageAssets {
  /** Classic script that puts the colour mode on <html> before the first paint. */
  colorModeScript: string
  stylesheets: readonly string[]
  entryScript: string
  /** The entry's static imports: fetched in parallel with it instead of after it. */
  modulePreloads: readonly string[]
  favicon: string
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

export function renderIndexHtml(template: string, assets: PageAssets): string {
  if (!template.includes(HEAD_MARKER)) {
    throw new Error(`client/index.html has no ${HEAD_MARKER} marker to put the build's files at`)
  }
  const tags = [
    `<link rel="icon" type="image/svg+xml" href="${escapeAttribute(assets.favicon)}">`,
    `<script src="${escapeAttribute(assets.colorModeScript)}"></script>`,
    ...assets.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`),
    ...assets.modulePreloads.map(
      (href) => `<link rel="modulepreload" href="${escapeAttribute(href)}">`,
    ),
    `<script type="module" src="${escapeAttribute(assets.entryScript)}"></script>`,
  ]
  return template.replace(HEAD_MARKER, tags.join('\n    '))
}
