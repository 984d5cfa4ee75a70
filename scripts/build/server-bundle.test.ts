import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { build, type BuildResult } from 'esbuild'
import { serverOptions } from './esbuild-options'
import { inputsOf, outputFor, staticClosure, staticExternalsOf } from './metafile'

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
    const { metafile } = result
    // What Node loads before main.ts runs. Only `import` statements are followed: a package
    // loaded by a require() of a module's own making (createRequire) is not seen, so the lock's
    // module, which imports libsql, is looked for by name as well.
    const loaded = staticClosure(metafile, outputFor(metafile, 'server/main.ts'))
    const inputs = inputsOf(metafile, loaded)
    assert.ok(inputs.includes('server/main.ts'))
    assert.ok(!staticExternalsOf(metafile, loaded).includes('libsql'), 'libsql is loaded later')
    assert.deepEqual(
      inputs.filter((input) => input.includes('node_modules/typebox/')),
      [],
    )
    assert.ok(!inputs.includes('server/db/data-dir-lock.ts'), 'the lock is loaded by import()')
  })
})
