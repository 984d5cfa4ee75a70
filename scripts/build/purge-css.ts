import { realpathSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { Plugin } from 'esbuild'
import { PurgeCSS } from 'purgecss'

/**
 * Only the CoreUI CSS the panel uses. CoreUI's stylesheet is 322 KB (30 KB brotli) and the panel
 * uses a fraction of it. PurgeCSS keeps the rules whose selectors name classes, ids and tags that
 * appear in the files the first pass found in use: the app's sources and the CoreUI component
 * files that add classes as they render (`show`, `sidebar-narrow`, ...).
 *
 * Classes composed at run time from a prop (`btn-${color}`) never appear whole in any file, so
 * every such family found in those files (`btn-`) is kept entirely. e2e/css-purge.spec.ts proves,
 * on every run, that every page and screen renders the same with the full stylesheet.
 */

/**
 * Families composed from a theme colour (`text-${color}`), or from an alignment: kept only for
 * those words, not whole (`text-` alone would keep every text utility CoreUI has).
 */
const COLOURS = 'primary|secondary|success|danger|warning|info|light|dark|white|black|body'
const NARROWED: Record<string, RegExp> = {
  'text-': new RegExp(`^text-(${COLOURS})(-|$)`),
  'bg-': new RegExp(`^bg-(${COLOURS})(-|$)`),
  'border-': new RegExp(`^border-(${COLOURS})(-|$)`),
  'text-bg-': new RegExp(`^text-bg-(${COLOURS})$`),
  'align-': /^align-(baseline|top|middle|bottom|text-top|text-bottom)$/,
  'btn-': new RegExp(`^btn-((outline|ghost)-)?(${COLOURS}|link)$|^btn-(sm|lg)$`),
}

/**
 * The safelist pattern of a composed family: narrowed if known, else the whole family.
 * `btn-` (from `btn-${color}`) is every class that starts so; `col` (from `col${infix}`) is `col`
 * and the classes that start with `col-`, not `collapse`.
 */
export function familyPattern(prefix: string): RegExp {
  const narrowed = NARROWED[prefix]
  if (narrowed) return narrowed
  const escaped = prefix.replace(/-/g, '\\-')
  return prefix.endsWith('-') ? new RegExp(`^${escaped}`) : new RegExp(`^${escaped}(\\-|$)`)
}

/**
 * The class families the given sources compose at run time: `btn-` for `` `btn-${color}` ``,
 * `col` for `` `col${infix}-${span}` ``.
 */
export function composedClassPrefixes(sources: readonly string[]): string[] {
  const prefixes = new Set<string>()
  for (const source of sources) {
    // `btn-${color}`, and what older compilers make of it: "btn-".concat(color), "btn-" + color.
    const shapes = [
      /[`\s'"]([a-z][a-z0-9]*(?:-[a-z0-9]+)*-?)\$\{/g,
      /["']([a-z][a-z0-9]*(?:-[a-z0-9]+)*-)["']\s*(?:\.concat\(|\+)/g,
    ]
    for (const shape of shapes) {
      for (const match of source.matchAll(shape)) if (match[1]) prefixes.add(match[1])
    }
  }
  return [...prefixes].sort()
}

/**
 * CoreUI writes every logical margin and padding twice: `-webkit-margin-start` before
 * `margin-inline-start`, for Safari before 14.1. The browsers the build targets (Safari 16.4 and
 * up: esbuild-options.ts) read the standard property, so the prefixed copy is bytes on every cold
 * load that no browser uses (0.2 KB of brotli on #/login).
 */
const OLD_WEBKIT_LOGICAL = /-webkit-(?:margin|padding)-(?:start|end):[^;}]*;?/g

export function withoutOldWebkitLogicalProperties(css: string): string {
  return css.replace(OLD_WEBKIT_LOGICAL, '')
}

/** What PurgeCSS looks for selectors in: a source file's text, or markup. */
export interface PurgeContent {
  raw: string
  /** `tsx`, `js`, `html`...: how PurgeCSS reads it. */
  extension: string
}

export async function readContentFiles(files: readonly string[]): Promise<PurgeContent[]> {
  return Promise.all(
    files.map(async (file) => ({
      raw: await readFile(file, 'utf8'),
      extension: file.split('.').pop() ?? 'js',
    })),
  )
}

export async function purgeStylesheet(
  css: string,
  contentFiles: readonly string[],
): Promise<string> {
  return purgeAgainst(css, await readContentFiles(contentFiles))
}

/**
 * A composed family narrowed to the words its sources can give it: `btn-` with the words
 * primary, ghost and secondary keeps `btn-primary` and `btn-ghost-secondary`, not `btn-info`.
 */
export function familyPatternFor(prefix: string, words: ReadonlySet<string>): RegExp {
  const escaped = prefix.replace(/-/g, '\\-')
  const word = [...words].sort().join('|')
  return new RegExp(`^${escaped}(${word})(\\-(${word}))*$`)
}

/** The one-word string literals of the given sources (`'primary'`, `"ghost"`). */
export function literalWords(sources: readonly string[]): Set<string> {
  const words = new Set<string>()
  for (const source of sources) {
    for (const match of source.matchAll(/["'`]([a-z][a-z0-9]*)["'`]/g)) words.add(match[1]!)
  }
  return words
}

/**
 * The rules of `css` that can apply to what `contents` render (see the top of this file).
 * `familyWords`: composed families keep only the classes these words compose (familyPatternFor),
 * and the sidebar's variables are not kept: for one page's CSS (critical-css.ts), not the app's.
 */
export async function purgeAgainst(
  css: string,
  contents: readonly PurgeContent[],
  { familyWords }: { familyWords?: ReadonlySet<string> } = {},
): Promise<string> {
  const sources = contents.map((content) => content.raw)
  const prefixes = composedClassPrefixes(sources)

  // Custom properties the app reads outside this stylesheet: var() in its own CSS (app.css is
  // not purged, so PurgeCSS does not see those uses) and names in JavaScript (CoreUI's CSidebar
  // reads --cui-is-mobile to know it is on a phone).
  const readElsewhere = [...new Set(sources.flatMap((raw) => raw.match(/--cui-[\w-]+/g) ?? []))]
  const [result] = await new PurgeCSS().purge({
    content: contents.map(({ raw, extension }) => ({ raw, extension })),
    css: [{ raw: css }],
    safelist: {
      standard: [/^(show|showing|hide|hiding|fade|collapsing)$/],
      greedy: prefixes.map((prefix) =>
        familyWords ? familyPatternFor(prefix, familyWords) : familyPattern(prefix),
      ),
      variables: familyWords ? readElsewhere : [...readElsewhere, /^--cui-(sidebar|backdrop)/],
    },
    // The colour mode is an attribute on <html>: its rules are judged by the rest of their selector.
    dynamicAttributes: ['data-coreui-theme'],
    // Custom properties no kept rule reads go (1 KB of brotli on every cold load), except the
    // sidebar's and the backdrop's: on a phone CoreUI's sidebar and its backdrop read them in
    // states PurgeCSS cannot see (the phone sidebar rendered differently without them:
    // e2e/css-purge.spec.ts). Keyframes and font faces are cheap and easy to miss: all kept.
    variables: true,
    keyframes: false,
    fontFace: false,
  })
  return withoutOldWebkitLogicalProperties(result?.css ?? css)
}

/** Pass 2: the given stylesheet is loaded purged against the given files. */
export function purgedStylesheetPlugin(options: {
  stylesheet: string
  contentFiles: readonly string[]
}): Plugin {
  return {
    name: 'painel-purged-stylesheet',
    setup(build) {
      // esbuild loads a file by its real path: a node_modules that is a symlink (a git worktree
      // sharing another checkout's) would otherwise never match, and nothing would be purged.
      const stylesheet = realpathSync(options.stylesheet)
      build.onLoad({ filter: /\.css$/ }, async (args) => {
        if (args.path !== stylesheet) return undefined
        return {
          contents: await purgeStylesheet(await readFile(args.path, 'utf8'), options.contentFiles),
          loader: 'css',
        }
      })
    },
  }
}
