import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { build, type BuildResult, type Metafile } from 'esbuild'
import { serverOptions } from './esbuild-options'

/**
 * Every input of an output and of the outputs it imports statically, and the externals among them.
 * Only `import` statements are followed: a package a module loads with a require() of its own
 * making (createRequire) is not seen, so the lock's module is checked by name below as well.
 */
function staticGraph(
  metafile: Metafile,
  entry: string,
): { inputs: Set<string>; externals: Set<string> } {
  const inputs = new Set<string>()
  const externals = new Set<string>()
  const pending = [entry]
  const seen = new Set<string>()
  while (pending.length > 0) {
    const output = pending.pop()!
    if (seen.has(output)) continue
    seen.add(output)
    const { inputs: own, imports } = metafile.outputs[output]!
    for (const input of Object.keys(own)) inputs.add(input)
    for (const imported of imports) {
      if (imported.kind !== 'import-statement') continue
      if (imported.external) externals.add(imported.path)
      else pending.push(imported.path)
    }
  }
  return { inputs, externals }
}

describe('the compiled server', () => {
  let result: BuildResult<{ write: false; metafile: true }>
  before(async () => {
    result = await build({ ...serverOptions(), write: false, metafile: true, logLevel: 'silent' })
  })

  it('is ASCII in every chunk, so that V8 reads and parses each one as one-byte text', () => {
    const chunks = result.outputFiles.filter((file) => file.path.endsWith('.js'))
    assert.ok(chunks.length > 3, 'the server is split into chunks')
    const outsideAscii = chunks
      .map((file) => {
        const at = file.contents.findIndex((byte) => byte > 0x7f)
        return at < 0
          ? null
          : `${file.path}: ${JSON.stringify(file.text.slice(Math.max(0, at - 40), at + 40))}`
      })
      .filter((found) => found !== null)
    assert.deepEqual(outsideAscii, [])
  })

  it("loads neither the SQLite binding nor TypeBox before main.ts begins the first admin's hash", () => {
    const entry = Object.keys(result.metafile.outputs).find((output) =>
      output.endsWith('server/main.js'),
    )
    assert.ok(entry, 'main.js is built')
    const { inputs, externals } = staticGraph(result.metafile, entry)
    assert.ok(inputs.has('server/main.ts'))
    assert.deepEqual(
      [...externals].filter((name) => name === 'libsql'),
      [],
    )
    assert.deepEqual(
      [...inputs].filter((input) => input.includes('node_modules/typebox/')),
      [],
    )
    assert.ok(!inputs.has('server/db/data-dir-lock.ts'), 'the lock (libsql) is loaded by import()')
  })
})
