import {
  decode,
  encode,
  type SourceMapMappings,
  type SourceMapSegment,
} from '@jridgewell/sourcemap-codec'
import { build, transform, type Plugin } from 'esbuild'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REQUIRE_BANNER, SERVER_EXTERNALS } from './build/esbuild-options'
import { root } from './paths'

/**
 * The unit and server test files, compiled before they run: one esbuild build of them all, each
 * file an entry of its own and the modules they share in chunks, with the server's packages
 * bundled in as the server's own build has them. Each test file's process then loads plain
 * JavaScript: through tsx's hooks, a file that only imports the server's test helpers took
 * 2.2–2.5 s to start, compiled 1.1–1.3 s, and the SQLite pass of `npm test` went from 449 s to
 * 312 s (docs/testing.md).
 */
export interface TestBundles {
  /** The compiled file of each process (absolute), in the order the processes were given. */
  readonly entries: readonly string[]
  /** Removes the compiled files. */
  remove(): Promise<void>
}

/** Several test files in one process: scripts/test-files-together.ts, as node:test. */
const TOGETHER = join(root, 'scripts', 'test-files-together.ts')
const PROCESS_NAMESPACE = 'painel-test-process'
const FILE_NAMESPACE = 'painel-test-file'

/** A process's entry: its one test file, or the module testFilesTogetherPlugin makes for several. */
const entryOf = (files: readonly string[], index: number) =>
  files.length === 1 ? files[0]! : `${PROCESS_NAMESPACE}:${index}`

/**
 * The entry of a process of several test files: each file's module, just after a module that
 * tells test-files-together.ts whose calls follow, then runFiles(). Every `node:test` import of
 * the build is test-files-together.ts; in a process of one file it passes every call straight on.
 */
function testFilesTogetherPlugin(processes: readonly (readonly string[])[]): Plugin {
  return {
    name: 'test-files-together',
    setup(builder) {
      builder.onResolve({ filter: /^node:test$/ }, ({ importer }) =>
        importer === TOGETHER ? { path: 'node:test', external: true } : { path: TOGETHER },
      )
      builder.onResolve(
        { filter: new RegExp(`^(${PROCESS_NAMESPACE}|${FILE_NAMESPACE}):`) },
        ({ path }) => {
          const [namespace, name] = path.split(/:(.*)/s) as [string, string]
          return { path: name, namespace }
        },
      )
      builder.onLoad({ filter: /.*/, namespace: FILE_NAMESPACE }, ({ path }) => ({
        contents: `import { startFile } from ${JSON.stringify(TOGETHER)}\nstartFile(${JSON.stringify(path)})\n`,
        resolveDir: root,
        loader: 'js',
      }))
      builder.onLoad({ filter: /.*/, namespace: PROCESS_NAMESPACE }, ({ path }) => ({
        contents: [
          ...processes[Number(path)]!.flatMap((file) => [
            `import ${JSON.stringify(`${FILE_NAMESPACE}:${file}`)}`,
            `import ${JSON.stringify(join(root, file))}`,
          ]),
          `import { runFiles } from ${JSON.stringify(TOGETHER)}`,
          'runFiles()',
        ].join('\n'),
        resolveDir: root,
        loader: 'js',
      }))
    },
  }
}

/**
 * `import.meta.url`, `.dirname` and `.filename` keep naming the module's own source file. In a
 * bundle they would name the bundle, and code that finds files beside itself (server/main.ts's
 * dist/, the provisioning corpus, `createRequire` for packages) would look in .cache/. esbuild's
 * `define` replaces the expressions, not text inside strings (scripts/build/esbuild-options.ts
 * has `import.meta.url` inside a string that must stay).
 */
export const sourceLocationPlugin: Plugin = {
  name: 'source-location',
  setup(builder) {
    builder.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined
      const source = await readFile(path, 'utf8')
      if (!source.includes('import.meta')) return undefined
      const { code } = await transform(source, {
        loader: path.endsWith('x') ? 'tsx' : 'ts',
        sourcefile: path,
        sourcemap: 'inline',
        define: {
          'import.meta.url': JSON.stringify(pathToFileURL(path).href),
          'import.meta.filename': JSON.stringify(path),
          'import.meta.dirname': JSON.stringify(dirname(path)),
        },
      })
      return { contents: code, loader: 'js' }
    })
  },
}

const RUNTIME_PACKAGES = new Set(
  Object.keys(
    (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>
      }
    ).dependencies,
  ),
)

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')
}

/**
 * The server's packages (package.json's dependencies) bundled in with what they import, as the
 * server's build bundles them (scripts/build/esbuild-options.ts: its externals stay outside here
 * too); the tests' and the build's own packages left to Node. A test file that imports the
 * server's test fixture spent most of its start finding and reading package files one by one:
 * 1.43 s to load with the packages outside, 0.85 s with them bundled in (no source maps, the mean
 * of eight runs each).
 */
const serverPackagesBundled: Plugin = {
  name: 'server-packages-bundled',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path, importer, kind }) => {
      if (kind === 'entry-point' || path.startsWith('node:')) return undefined
      const name = packageOf(path)
      if (SERVER_EXTERNALS.includes(name)) return { path, external: true }
      if (importer.includes('/node_modules/') || RUNTIME_PACKAGES.has(name)) return undefined
      return { path, external: true }
    })
  },
}

interface SourceMapFile {
  version: number
  sources: string[]
  names: string[]
  mappings: string
}

/**
 * A compiled file's source map with the repository's own sources only. Node
 * (--enable-source-maps) decodes each module's map whole when it loads, and the packages bundled in
 * made the maps ten times as large: their mappings cost more than the bundling saved. A failure's
 * stack is in the repository's code, and a package's frames keep the compiled file's lines.
 */
export function ownSourcesOnly(map: SourceMapFile): SourceMapFile {
  const renumbered = map.sources.map(() => -1)
  const sources: string[] = []
  map.sources.forEach((source, index) => {
    if (source.includes('node_modules/')) return
    renumbered[index] = sources.length
    sources.push(source)
  })
  const mappings: SourceMapMappings = decode(map.mappings).map((line) =>
    line.flatMap((segment): SourceMapSegment[] => {
      if (segment.length === 1) return [segment]
      const source = renumbered[segment[1]]!
      return source < 0 ? [] : [[segment[0], source, segment[2], segment[3]]]
    }),
  )
  return { version: map.version, sources, names: [], mappings: encode(mappings) }
}

/**
 * Compiles the test files of each process (paths relative to the root; scripts/test-processes.ts
 * makes the list) into one file per process, in a folder of this run's own under .cache/
 * (inside the root, so that packages resolve from node_modules; two runs at once, say SQLite and
 * PostgreSQL, do not share it). Each compiled file's name starts with its process's place
 * (`0007-` for the eighth): Node 20's runner sorts the files it is given by name, and so starts
 * them in the order asked.
 */
export async function bundleTestFiles(
  processes: readonly (readonly string[])[],
): Promise<TestBundles> {
  await mkdir(join(root, '.cache'), { recursive: true })
  const outdir = await mkdtemp(join(root, '.cache', 'unit-tests-'))
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: processes.map((files, index) => ({
      in: entryOf(files, index),
      out: `${String(index).padStart(4, '0')}-${files[0]!.replace(/\.ts$/, '').replaceAll('/', '__')}${files.length > 1 ? `-and-${files.length - 1}` : ''}`,
    })),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    banner: { js: REQUIRE_BANNER },
    // Node (--enable-source-maps) then reports a failure's stack in the .ts sources; the maps are
    // cut to them below, and carry no sources' text (a stack needs only the positions).
    sourcemap: 'linked',
    sourcesContent: false,
    // The first to resolve: serverPackagesBundled would take the processes' own module names
    // (painel-test-process:…) for packages, and leave them to Node, which cannot load them.
    plugins: [testFilesTogetherPlugin(processes), sourceLocationPlugin, serverPackagesBundled],
    metafile: true,
    logLevel: 'warning',
  })
  await Promise.all(
    Object.keys(metafile.outputs)
      .filter((output) => output.endsWith('.map'))
      .map(async (output) => {
        const path = join(root, output)
        const map = JSON.parse(await readFile(path, 'utf8')) as SourceMapFile
        await writeFile(path, JSON.stringify(ownSourcesOnly(map)))
      }),
  )
  const bundleOf = new Map<string, string>()
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint) bundleOf.set(entryPoint, join(root, output))
  }
  const remove = () => rm(outdir, { recursive: true, force: true })
  const entries = processes.map((files, index) => bundleOf.get(entryOf(files, index)))
  const missing = processes.filter((_files, index) => entries[index] === undefined)
  if (missing.length > 0) {
    await remove()
    throw new Error(`not compiled: ${missing.map((files) => files.join(' + ')).join(', ')}`)
  }
  return { entries: entries as string[], remove }
}
