import { decode, encode } from '@jridgewell/sourcemap-codec'
import assert from 'node:assert/strict'
import { build } from 'esbuild'
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { ownSourcesOnly, sourceLocationPlugin } from './unit-test-bundles'

const dir = await mkdtemp(join(tmpdir(), 'painel-test-bundles-'))
after(() => rm(dir, { recursive: true, force: true }))

/** A module in a folder of its own, imported by an entry elsewhere, compiled into a third. */
async function compiled(): Promise<Record<string, string>> {
  await mkdir(join(dir, 'src', 'lib'), { recursive: true })
  await writeFile(
    join(dir, 'src', 'lib', 'where.ts'),
    [
      'export const url: string = import.meta.url',
      'export const dirname: string = import.meta.dirname',
      'export const filename: string = import.meta.filename',
      "export const text = 'const require = createRequire(import.meta.url)'",
      'export function stack(): string { return new Error("here").stack ?? "" }',
    ].join('\n'),
  )
  await writeFile(join(dir, 'src', 'entry.ts'), "export * from './lib/where'\n")
  await build({
    entryPoints: [join(dir, 'src', 'entry.ts')],
    outdir: join(dir, 'out'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    sourcemap: 'inline',
    plugins: [sourceLocationPlugin],
    logLevel: 'silent',
  })
  return (await import(pathToFileURL(join(dir, 'out', 'entry.mjs')).href)) as Record<string, string>
}

test('a compiled module still knows its own source file, and strings that name import.meta stay', async () => {
  const where = await compiled()
  const source = join(dir, 'src', 'lib', 'where.ts')
  assert.equal(where.url, pathToFileURL(source).href)
  assert.equal(where.dirname, join(dir, 'src', 'lib'))
  assert.equal(where.filename, source)
  assert.equal(where.text, 'const require = createRequire(import.meta.url)')
})

test('a failure in a compiled module is reported at its line in the source', async (t) => {
  if (!process.execArgv.includes('--enable-source-maps')) {
    t.skip('run without --enable-source-maps (npm run test:unit sets it)')
    return
  }
  const where = (await compiled()) as unknown as { stack(): string }
  assert.match(where.stack(), /src\/lib\/where\.ts:5:/)
})

test("a compiled file's map keeps the repository's sources and their positions, and drops the packages'", () => {
  const map = {
    version: 3,
    sources: ['../node_modules/kysely/index.js', '../server/app.ts', '../node_modules/pg/x.js'],
    names: ['query'],
    mappings: encode([
      [
        [0, 0, 1, 2, 0],
        [5, 1, 10, 4],
      ],
      [[0]],
      [
        [0, 2, 3, 0],
        [7, 1, 11, 0],
      ],
    ]),
  }
  const own = ownSourcesOnly(map)
  assert.deepEqual(own.sources, ['../server/app.ts'])
  assert.deepEqual(own.names, [])
  assert.deepEqual(decode(own.mappings), [[[5, 0, 10, 4]], [[0]], [[7, 0, 11, 0]]])
})
