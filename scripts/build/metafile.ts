import type { Metafile } from 'esbuild'

/**
 * Questions about esbuild's metafile: the client's in the terms of URLs the browser fetches, and
 * the server's (scripts/build/server-bundle.test.ts) in those of the files Node loads.
 */

/** `dist/assets/main-X.js` (relative to the repository) → `assets/main-X.js` (relative to the page). */
export function toUrl(outputPath: string): string {
  const index = outputPath.indexOf('assets/')
  if (index < 0) throw new Error(`output outside dist/assets: ${outputPath}`)
  return outputPath.slice(index)
}

/** The output file built from an entry point (or a lazily imported module), by source path. */
export function outputFor(metafile: Metafile, entryPoint: string): string {
  const found = Object.entries(metafile.outputs).find(
    ([path, output]) => output.entryPoint === entryPoint && path.endsWith('.js'),
  )
  if (!found) throw new Error(`no output was built from ${entryPoint}`)
  return found[0]
}

/**
 * Every JS file a module pulls in before it can run: its static imports, transitively (not the
 * dynamic ones, which load later on demand). In load order, the module itself first.
 */
export function staticClosure(metafile: Metafile, start: string): string[] {
  const seen = new Set<string>()
  const visit = (path: string) => {
    if (seen.has(path)) return
    seen.add(path)
    importsOf(metafile, path, 'import-statement').forEach(visit)
  }
  visit(start)
  return [...seen]
}

/** The files of this build an output imports, statically or dynamically (not external ones). */
function importsOf(
  metafile: Metafile,
  path: string,
  kind: 'import-statement' | 'dynamic-import',
): string[] {
  return (metafile.outputs[path]?.imports ?? [])
    .filter((imported) => imported.kind === kind && !imported.external)
    .map((imported) => imported.path)
}

/** Stylesheets of a JS output and of its static imports (esbuild's `cssBundle`). */
export function stylesheetsFor(metafile: Metafile, jsOutputs: readonly string[]): string[] {
  return jsOutputs.flatMap((path) => {
    const css = metafile.outputs[path]?.cssBundle
    return css ? [css] : []
  })
}

/**
 * Every JS file a module may load, now or later: its static closure and, for each file of it
 * that `loaded` does not already hold, what that file imports dynamically, transitively. A
 * chunk already loaded (the entry's shared code) is not followed: its dynamic imports are the
 * other routes, not this module's.
 */
export function closureBeyond(metafile: Metafile, start: string, loaded: ReadonlySet<string>) {
  const seen = new Set<string>()
  const visit = (module: string) => {
    for (const path of staticClosure(metafile, module)) {
      if (seen.has(path) || loaded.has(path)) continue
      seen.add(path)
      importsOf(metafile, path, 'dynamic-import').forEach(visit)
    }
  }
  visit(start)
  return [...seen]
}

/** The packages left outside the build that the given outputs import statically. */
export function staticExternalsOf(metafile: Metafile, outputs: readonly string[]): string[] {
  const externals = outputs.flatMap((path) =>
    (metafile.outputs[path]?.imports ?? [])
      .filter((imported) => imported.kind === 'import-statement' && imported.external)
      .map((imported) => imported.path),
  )
  return [...new Set(externals)]
}

/** The source files (relative to the repository) bundled into the given outputs. */
export function inputsOf(metafile: Metafile, outputs: readonly string[]): string[] {
  return [...new Set(outputs.flatMap((path) => Object.keys(metafile.outputs[path]?.inputs ?? {})))]
}
