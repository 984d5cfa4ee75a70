import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * `import { CButton, CCard } from '@coreui/react'` becomes one import per component file.
 *
 * Through the package's index (a file of re-exports), esbuild cannot tell which of CoreUI's
 * files each entry point needs, and puts all of them in one shared chunk: the login page then
 * downloads the sidebar, the dropdowns and Popper (measured: an entry needing only CSpinner got
 * a 33 KB chunk instead of 3.6 KB). Importing each component from its own file lets esbuild split
 * them like any other module. The source keeps the ordinary import; only the build rewrites it.
 */

/** Export name → absolute file, from an index made of `export { Name } from './file.js'` lines. */
export function exportMap(indexFile: string): Map<string, string> {
  const map = new Map<string, string>()
  const source = readFileSync(indexFile, 'utf8')
  for (const match of source.matchAll(/export\s*\{([^}]+)\}\s*from\s*'(\.[^']+)'/g)) {
    const file = join(dirname(indexFile), match[2] ?? '')
    for (const name of (match[1] ?? '').split(',')) {
      const exported = name
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim()
      if (exported) map.set(exported, file)
    }
  }
  return map
}

const importFrom = (names: string[], from: string) =>
  `import { ${names.join(', ')} } from ${JSON.stringify(from)}`

/** Rewrites the value imports of `packageName` in a source file; anything unknown stays as it was. */
export function rewritePackageImports(
  source: string,
  packageName: string,
  exports: Map<string, string>,
): string {
  const quoted = packageName.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&')
  const statement = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"];?`, 'g')
  return source.replace(statement, (whole, list: string) => {
    const specifiers = list
      .split(',')
      .map((specifier) => specifier.trim())
      .filter(Boolean)
    const byFile = new Map<string, string[]>()
    const kept: string[] = []
    for (const specifier of specifiers) {
      const imported =
        specifier
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]
          ?.trim() ?? ''
      const file = specifier.startsWith('type ') ? undefined : exports.get(imported)
      if (file) byFile.set(file, [...(byFile.get(file) ?? []), specifier])
      else kept.push(specifier)
    }
    if (byFile.size === 0) return whole
    const lines = [...byFile].map(([file, names]) => importFrom(names, file))
    if (kept.length > 0) lines.push(importFrom(kept, packageName))
    return lines.join('\n')
  })
}
