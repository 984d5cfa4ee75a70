import { isAbsolute, join } from 'node:path'
import type { Metafile, Plugin } from 'esbuild'
import { staticClosure } from './metafile'

/**
 * One shared chunk for the public pages' cold path.
 *
 * esbuild splits code by the exact set of entry points (the entry and every lazily imported
 * module) that use each file: every distinct set becomes a chunk of its own. With a dozen lazy
 * pages and screens that is a dozen small shared chunks, each a request on a cold load (16 for
 * #/login). esbuild has no option to group them (evanw/esbuild#207), so the build does it in
 * two passes:
 *
 * 1. A normal build. Every file that it put in a shared chunk on the cold path of the entry or of
 *    a public page (React, the router, the CoreUI components and form helpers those pages use)
 *    is listed.
 * 2. The real build, where every entry and lazy module first imports one virtual module that
 *    imports all those files, marked as having side effects so esbuild keeps the imports. Each of
 *    them is then reached from every entry point, so all of them land in the same chunk. Files
 *    only the inner screens share keep esbuild's own chunking: the login page never fetches them.
 *
 * (CoreUI's components must be imported file by file for this to work: see per-file-imports.ts.)
 *
 * A public page's cold load is then: the page, the colour-mode script, the stylesheet, the
 * entry, the common chunk and the page's own chunk.
 */

const VIRTUAL = 'painel:common-chunk'
const SCRIPT = /\.[cm]?[jt]sx?$/

/**
 * The app's own source files (relative to the working directory) in the shared chunks on the
 * given cold paths. Packages are not listed: esbuild will not keep a bare import of a package
 * that declares `"sideEffects": false`, and it needs none: a package file used by a pinned app
 * file is reached from every entry point through it.
 */
export function coldPathSharedInputs(
  metafile: Metafile,
  mainEntry: string,
  coldEntries: readonly string[],
): string[] {
  const entries = new Set(Object.values(metafile.outputs).map((output) => output.entryPoint))
  const outputOf = (entry: string) => {
    const found = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === entry)
    if (!found) throw new Error(`no output was built from ${entry}`)
    return found[0]
  }
  const mainOutput = outputOf(mainEntry)
  const shared = new Set<string>()
  for (const entry of [mainEntry, ...coldEntries]) {
    for (const chunk of staticClosure(metafile, outputOf(entry))) {
      // A page's own chunk stays its own. The entry's own files are pinned too: every cold load
      // runs them anyway, and through them the packages they use (the router) join the chunk.
      if (chunk !== mainOutput && metafile.outputs[chunk]?.entryPoint !== undefined) continue
      for (const input of Object.keys(metafile.outputs[chunk]?.inputs ?? {})) {
        // Scripts only: a stylesheet imported from here would come before CoreUI's, and its rules
        // would lose every tie in the cascade.
        if (!input.includes('node_modules/') && !entries.has(input) && SCRIPT.test(input))
          shared.add(input)
      }
    }
  }
  return [...shared].sort()
}

const isPackageFile = (path: string) => /[\\/]node_modules[\\/]/.test(path)

/** Every module esbuild made an entry point of: the entry and each lazily imported module. */
export function entryModules(metafile: Metafile): string[] {
  return Object.values(metafile.outputs)
    .map((output) => output.entryPoint)
    .filter((entry): entry is string => entry !== undefined)
}

/** The line every entry module gets in pass 2, before its own source. */
export const COMMON_CHUNK_IMPORT = `import ${JSON.stringify(VIRTUAL)}\n`

/**
 * Pass 2: a virtual module importing the given files (paths relative to `workingDir`), each
 * marked as having side effects so esbuild keeps the imports although nothing uses them there.
 * (client-source.ts makes every entry module import it.)
 */
export function commonChunkPlugin(options: {
  workingDir: string
  sharedInputs: readonly string[]
}): Plugin {
  const absolute = (path: string) => (isAbsolute(path) ? path : join(options.workingDir, path))
  const pinned = new Set(options.sharedInputs.map(absolute))
  return {
    name: 'painel-common-chunk',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${VIRTUAL}$`) }, () => ({
        path: VIRTUAL,
        namespace: VIRTUAL,
      }))
      build.onLoad({ filter: /.*/, namespace: VIRTUAL }, () => ({
        contents: [...pinned].map((path) => `import ${JSON.stringify(path)}`).join('\n'),
        resolveDir: options.workingDir,
        loader: 'js',
      }))
      // Only packages need marking (they may declare no side effects); the app's own files are
      // left to esbuild's resolver. A path a plugin resolves has no module type (esbuild #2958),
      // and whichever importer resolved a file first decided its type: the same sources built
      // twice gave different chunks (`__toESM(require_x(), 1)` or without the 1 in app files).
      build.onResolve({ filter: /.*/ }, (args) =>
        args.importer === VIRTUAL && pinned.has(args.path) && isPackageFile(args.path)
          ? { path: args.path, sideEffects: true }
          : undefined,
      )
    },
  }
}
