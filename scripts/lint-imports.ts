/**
 * `npm run lint`'s check of the layering (docs/architecture.md): client → common ← server, never client ↔
 * server, common imports neither, no import cycle anywhere (static, dynamic and type-only
 * imports all count: a cycle through types still says the layering is upside down), and no two
 * folders of a side tied in a cycle (folderCycles).
 *
 * Inside each side, features (client/src/features/<name>/, server/features/<name>/) import no
 * other feature, and shared code imports no feature: only the composition root (COMPOSITION_ROOTS)
 * puts features together. Tests may reach across features to set a scene, so *.test.ts(x) files
 * and the server's test fixtures are held to the client ↔ server rule only.
 *
 * Written on TypeScript's own import scanner rather than eslint-plugin-import-x: that plugin
 * resolves through unrs-resolver, whose platform packages the registry this project installs
 * from does not all have, so `npm ci` could not install it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { root } from './paths'

export interface ImportProblem {
  file: string
  message: string
}

type Layer = 'client' | 'server' | 'common'

/** Which layers a layer may not import, and why. */
const FORBIDDEN: Record<Layer, Partial<Record<Layer, string>>> = {
  client: { server: 'the client may not import server code: share it through common/' },
  server: { client: 'the server may not import client code: share it through common/' },
  common: {
    client: 'common/ is shared by both sides and imports neither',
    server: 'common/ is shared by both sides and imports neither',
  },
}

const SOURCE = /\.(ts|tsx)$/

/** Where each side keeps its features: one folder per feature directly below. */
const FEATURE_FOLDERS = ['client/src/features', 'server/features']

/**
 * The composition root of each side: the only code that may import features. A folder ends with
 * '/'. Nothing but the root itself may import the client's root (app/ assembles the client).
 */
const COMPOSITION_ROOTS = [
  'client/src/main.tsx',
  'client/src/app/',
  'server/app.ts',
  'server/main.ts',
  'server/built-in-api.ts',
]

/** Held to the client ↔ server rule only (see the header). */
const EXEMPT_FROM_FEATURE_RULES = [/\.test\.tsx?$/, /^server\/test\//]

const posix = (path: string) => path.split(sep).join('/')

function featureOf(path: string): string | null {
  for (const folder of FEATURE_FOLDERS) {
    if (!path.startsWith(`${folder}/`)) continue
    const name = path.slice(folder.length + 1).split('/')[0]
    // A file lying directly in features/ belongs to no feature.
    return name && path.slice(folder.length + 1).includes('/') ? `${folder}/${name}` : null
  }
  return null
}

const isRoot = (path: string) =>
  COMPOSITION_ROOTS.some((rootPath) =>
    rootPath.endsWith('/') ? path.startsWith(rootPath) : path === rootPath,
  )

/** Why `from` may not import `to` under the feature rules (paths relative to the tree), if so. */
function featureProblem(from: string, to: string): string | undefined {
  if (EXEMPT_FROM_FEATURE_RULES.some((pattern) => pattern.test(from)) || isRoot(from)) return
  const fromFeature = featureOf(from)
  const toFeature = featureOf(to)
  if (isRoot(to)) return 'only the composition root imports the composition root'
  if (!toFeature || toFeature === fromFeature) return
  return fromFeature
    ? `features do not import each other (${fromFeature} → ${toFeature}): move what both need to a shared folder`
    : `shared code imports no feature (${toFeature}): the composition root puts features together`
}

function layerOf(tree: string, file: string): Layer | null {
  const [top] = relative(tree, file).split(sep)
  return top === 'client' || top === 'server' || top === 'common' ? top : null
}

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .filter((entry) => !entry.parentPath.split(sep).includes('node_modules'))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** A relative specifier as a file, the way the bundler and tsx find it; null for packages. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

/** Every import of every source file under client/, server/ and common/ of `tree`. */
export function importGraph(tree: string): Map<string, { target: string; line: number }[]> {
  const graph = new Map<string, { target: string; line: number }[]>()
  const files = ['client', 'server', 'common'].flatMap((folder) => sourceFiles(join(tree, folder)))
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const { importedFiles } = ts.preProcessFile(text, true, true)
    graph.set(
      file,
      importedFiles.flatMap(({ fileName, pos }) => {
        const target = resolveImport(file, fileName)
        if (!target) return []
        return [{ target, line: text.slice(0, pos).split('\n').length }]
      }),
    )
  }
  return graph
}

export function checkImports(tree: string): ImportProblem[] {
  const graph = importGraph(tree)
  const problems: ImportProblem[] = []
  const name = (file: string) => relative(tree, file)

  for (const [file, imports] of graph) {
    const from = layerOf(tree, file)
    for (const { target, line } of imports) {
      const to = layerOf(tree, target)
      const why =
        (from && to ? FORBIDDEN[from][to] : undefined) ??
        featureProblem(posix(name(file)), posix(name(target)))
      if (why)
        problems.push({ file: `${name(file)}:${line}`, message: `imports ${name(target)}: ${why}` })
    }
  }

  // Cycles: a depth-first walk; a file met again while still on the path closes a cycle.
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const reported = new Set<string>()
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const { target } of graph.get(file) ?? []) {
      if (state.get(target) === 'open') {
        const cycle = path.slice(path.indexOf(target)).map(name)
        const key = [...cycle].sort().join('|')
        if (!reported.has(key)) {
          reported.add(key)
          problems.push({
            file: cycle[0] ?? name(target),
            message: `import cycle: ${[...cycle, name(target)].join(' → ')}`,
          })
        }
      } else if (!state.has(target) && graph.has(target)) {
        visit(target)
      }
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file)
  problems.push(...folderCycles(graph, tree))
  return problems
}

/**
 * The folder a file counts in for the folder rule: a feature's own folder, else the first folder
 * below its side's root (client/src/, server/), else that root itself. Tests and the server's
 * fixtures stand outside (they may set a scene from anywhere); common/ is below both sides, one
 * layer whose schemas (common/api/) and rules use each other.
 */
function folderOf(path: string): string | null {
  if (EXEMPT_FROM_FEATURE_RULES.some((pattern) => pattern.test(path))) return null
  const feature = featureOf(path)
  if (feature) return feature
  for (const side of ['client/src', 'server']) {
    if (!path.startsWith(`${side}/`)) continue
    const rest = path.slice(side.length + 1).split('/')
    return rest.length > 1 ? `${side}/${rest[0]}` : side
  }
  return null
}

/**
 * No two folders of a side import each other, directly or around a loop (docs/architecture.md
 * draws the order): each set of folders tied that way (Tarjan's strongly connected components) is
 * one problem, naming an import for each tie.
 */
function folderCycles(
  graph: Map<string, { target: string; line: number }[]>,
  tree: string,
): ImportProblem[] {
  const name = (file: string) => posix(relative(tree, file))
  /** For each folder, the folders it imports and one import that does it. */
  const edges = new Map<string, Map<string, string>>()
  for (const [file, imports] of graph) {
    const from = folderOf(name(file))
    if (!from) continue
    for (const { target, line } of imports) {
      const to = folderOf(name(target))
      if (!to || to === from) continue
      if (!edges.has(from)) edges.set(from, new Map())
      const out = edges.get(from)!
      if (!out.has(to)) out.set(to, `${name(file)}:${line} imports ${name(target)}`)
    }
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const connect = (folder: string) => {
    index.set(folder, index.size)
    low.set(folder, index.get(folder)!)
    stack.push(folder)
    onStack.add(folder)
    for (const next of [...(edges.get(folder)?.keys() ?? [])].sort()) {
      if (!index.has(next)) {
        connect(next)
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(next)!))
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== folder)
      if (component.length > 1) components.push(component.sort())
    }
  }
  for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) connect(folder)
  return components.map((component) => ({
    file: component[0]!,
    message: `folders tied in a cycle: ${component.join(' ↔ ')}; ${component
      .flatMap((from) =>
        [...(edges.get(from) ?? [])]
          .filter(([to]) => component.includes(to))
          .map(([, example]) => example),
      )
      .join('; ')}`,
  }))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkImports(root)
  for (const problem of problems) console.error(`${problem.file}: ${problem.message}`)
  if (problems.length > 0) {
    console.error(`imports: ${problems.length} problem(s)`)
    process.exit(1)
  }
  console.log('imports: client → common ← server, features apart, no cycles of files or folders')
}
