import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { build } from 'esbuild'
import { serverOptions } from './esbuild-options'

describe('the compiled server', () => {
  it('is ASCII in every chunk, so that V8 reads and parses each one as one-byte text', async () => {
    const { outputFiles } = await build({ ...serverOptions(), write: false, logLevel: 'silent' })
    const chunks = outputFiles.filter((file) => file.path.endsWith('.js'))
    assert.ok(chunks.length > 3, 'the server is split into chunks')
    const outsideAscii = chunks
      .map((file) => {
        const at = file.contents.findIndex((byte) => byte > 0x7f)
        return at < 0 ? null : `${file.path}: ${JSON.stringify(file.text.slice(at - 40, at + 40))}`
      })
      .filter((found) => found !== null)
    assert.deepEqual(outsideAscii, [])
  })
})
