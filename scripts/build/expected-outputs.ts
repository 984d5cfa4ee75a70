import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Metafile } from 'esbuild'

/**
 * Pages (client/src/pages/*-page.tsx), screens (client/src/screens/*-screen.tsx) and the layout
 * are loaded on demand, so each must come out of the build as a chunk of its own. A stray static
 * import would silently fold one into the entry; the build refuses that.
 */
export function lazyModules(clientSrc: string, root: string): string[] {
  const found = ['pages', 'screens'].flatMap((folder) => {
    const dir = join(clientSrc, folder)
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter((name) => /-(page|screen)\.tsx$/.test(name))
      .map((name) => relative(root, join(dir, name)))
  })
  return [...found, relative(root, join(clientSrc, 'layout', 'default-layout.tsx'))]
}

/** What is missing from a build: files that should exist and lazy modules without a chunk. */
export function missingOutputs(
  metafile: Metafile,
  lazy: readonly string[],
  files: readonly string[],
): string[] {
  const chunked = new Set(Object.values(metafile.outputs).map((output) => output.entryPoint))
  return [
    ...files.filter((file) => !existsSync(file)).map((file) => `file ${file}`),
    ...lazy
      .filter((module) => !chunked.has(module))
      .map((module) => `a chunk of its own for ${module}`),
  ]
}
