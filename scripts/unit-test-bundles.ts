import { build, transform, type Plugin } from 'esbuild'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { root } from './paths'

/**
 * The unit and server test files, compiled before they run: one esbuild build of them all, each
 * file an entry of its own and the modules they share in chunks, packages left to Node. Each
 * test file's process then loads plain JavaScript: through tsx's hooks, a file that only imports
 * the server's test helpers took 2.2–2.5 s to start, compiled 1.1–1.3 s, and the SQLite pass of
 * `npm test` went from 449 s to 312 s (docs/testing.md).
 */
export interface TestBundles {
  /** Source path (relative to the root) → its compiled file (absolute). */
  readonly bundleOf: ReadonlyMap<string, string>
  /** Removes the compiled files. */
  remove(): Promise<void>
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

/**
 * Compiles `files` (paths relative to the root) into a folder of this run's own under .cache/
 * (inside the root, so that packages resolve from node_modules; two runs at once, say SQLite and
 * PostgreSQL, do not share it). Each compiled file's name starts with its place in `files`
 * (`0007-server__db__backup.test.mjs`): Node 20's runner sorts the files it is given by name, and
 * so starts them in the order asked.
 */
export async function bundleTestFiles(files: readonly string[]): Promise<TestBundles> {
  await mkdir(join(root, '.cache'), { recursive: true })
  const outdir = await mkdtemp(join(root, '.cache', 'unit-tests-'))
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: files.map((file, index) => ({
      in: file,
      out: `${String(index).padStart(4, '0')}-${file.replace(/\.ts$/, '').replaceAll('/', '__')}`,
    })),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Packages load from node_modules as they do in the server: native ones (libsql), ones that
    // find their own files (PGlite's WebAssembly) and CommonJS ones need no special case.
    packages: 'external',
    // Node (--enable-source-maps) then reports a failure's stack in the .ts sources.
    sourcemap: 'inline',
    plugins: [sourceLocationPlugin],
    metafile: true,
    logLevel: 'warning',
  })
  const bundleOf = new Map<string, string>()
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint) bundleOf.set(entryPoint, join(root, output))
  }
  const remove = () => rm(outdir, { recursive: true, force: true })
  const missing = files.filter((file) => !bundleOf.has(file))
  if (missing.length > 0) {
    await remove()
    throw new Error(`not compiled: ${missing.join(', ')}`)
  }
  return { bundleOf, remove }
}
