/**
 * The sign-in page's own CSS, inline in index.html (index-html.ts). With the form prerendered,
 * a linked stylesheet was the one file between the HTML and the first paint: on a slow phone
 * link, a request on a new connection and 16 KB (brotli) that the sign-in page mostly does not
 * use. Inline, the form paints from the HTML and the boot script alone, and a cold #/login never
 * downloads the whole stylesheet (the app fetches it for any other page:
 * client/src/prerender/app-stylesheet.ts).
 *
 * "Everything the sign-in page can show" is the app's stylesheet purged (purge-css.ts) against
 * the sources of every chunk the login page may load (the entry's, the login page's and those
 * it imports later: the second step, the passkey prompt, the session-end notice), the colour-mode
 * boot script's (it sets the attributes app.css reads before the first paint) and the prerendered
 * markup. e2e/css-purge.spec.ts renders every state of the sign-in page with it and with the
 * full CoreUI stylesheet and compares them.
 */
import { join } from 'node:path'
import type { Metafile } from 'esbuild'
import { literalWords, purgeAgainst, readContentFiles } from './purge-css'
import { closureBeyond, inputsOf, outputFor, staticClosure } from './metafile'

/** The modules whose sources decide the sign-in page's CSS. */
export function signInSources(
  metafile: Metafile,
  modules: { entry: string; loginPage: string; colorModeBoot: string },
): string[] {
  const entry = staticClosure(metafile, outputFor(metafile, modules.entry))
  const outputs = [
    ...entry,
    ...closureBeyond(metafile, outputFor(metafile, modules.loginPage), new Set(entry)),
    outputFor(metafile, modules.colorModeBoot),
  ]
  return inputsOf(metafile, outputs).filter(
    (input) =>
      /^client\/|@coreui\/(react|icons-react)\//.test(input) && /\.(tsx?|jsx?)$/.test(input),
  )
}

export async function criticalStylesheet(
  css: string,
  {
    root,
    sources,
    markup,
  }: { root: string; sources: readonly string[]; markup: readonly string[] },
): Promise<string> {
  const contents = [
    ...(await readContentFiles(sources.map((source) => join(root, source)))),
    ...markup.map((raw) => ({ raw, extension: 'html' })),
  ]
  // In a <style> element the page's own encoding (UTF-8) applies; @charset would be ignored.
  // The words the app's own code passes to CoreUI (color="primary", variant="ghost"): CoreUI's
  // sources list every colour it accepts, which would keep every family whole.
  const familyWords = literalWords(
    contents.filter((_, index) => sources[index]?.startsWith('client/')).map(({ raw }) => raw),
  )
  return (await purgeAgainst(css, contents, { familyWords })).replace(/^@charset "[^"]*";/, '')
}
