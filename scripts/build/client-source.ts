import { readFile } from 'node:fs/promises'
import { dirname, isAbsolute, join } from 'node:path'
import type { Plugin } from 'esbuild'
import { COMMON_CHUNK_IMPORT } from './common-chunk'
import { exportMap, rewritePackageImports } from './per-file-imports'

/**
 * How the build reads the app's own source files: CoreUI's imports are rewritten per component
 * file (per-file-imports.ts), and, in the second pass, entry modules first import the common
 * chunk (common-chunk.ts). One plugin, because esbuild lets a single onLoad answer for a file.
 */
export function clientSourcePlugin(options: {
  workingDir: string
  /** Absolute path of @coreui/react's ESM index. */
  coreuiIndex: string
  /**
   * Absolute path of @coreui/icons' index of free icons: icons are rewritten per file too. Through
   * the package's index every icon the app uses anywhere (the sidebar's, the dashboard's) was put
   * in the login page's common chunk, because a public page imports three of them.
   */
  iconsIndex?: string
  /** Entry modules that import the common chunk (pass 2); none in pass 1. */
  entries?: readonly string[]
}): Plugin {
  const coreui = exportMap(options.coreuiIndex)
  const icons = options.iconsIndex ? exportMap(options.iconsIndex) : new Map<string, string>()
  const entries = new Set(
    (options.entries ?? []).map((path) =>
      isAbsolute(path) ? path : join(options.workingDir, path),
    ),
  )
  return {
    name: 'painel-client-source',
    setup(build) {
      build.onLoad({ filter: /[/\\]client[/\\]src[/\\].*\.tsx?$/ }, async (args) => {
        let source = rewritePackageImports(
          rewritePackageImports(await readFile(args.path, 'utf8'), '@coreui/react', coreui),
          '@coreui/icons',
          icons,
        )
        if (entries.has(args.path)) source = COMMON_CHUNK_IMPORT + source
        return {
          contents: source,
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
          resolveDir: dirname(args.path),
        }
      })
    },
  }
}
