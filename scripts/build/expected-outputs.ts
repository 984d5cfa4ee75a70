import { existsSync } from 'node:fs'
import type { Metafile } from 'esbuild'

/**
 * Every page and screen a route object loads, and the layout, are loaded on demand
 * (route-table.ts lists them), so each must come out of the build as a chunk of its own. A stray
 * static import would silently fold one into the entry; the build refuses that.
 */
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
