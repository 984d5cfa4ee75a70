import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { build } from 'esbuild'
import { builtinsByRequire } from './builtins-by-require'

const banner =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"

describe('builtinsByRequire', () => {
  it('loads built-ins with require, named and default imports alike, and leaves packages to import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'builtins-by-require-'))
    try {
      writeFileSync(
        join(dir, 'entry.ts'),
        [
          "import http, { STATUS_CODES } from 'node:http'",
          "import { join } from 'path'",
          "import * as zlib from 'node:zlib'",
          'console.log(STATUS_CODES[404], typeof http.createServer, join("a", "b"), typeof zlib.gzipSync)',
        ].join('\n'),
      )
      const result = await build({
        entryPoints: [join(dir, 'entry.ts')],
        outfile: join(dir, 'out.mjs'),
        bundle: true,
        format: 'esm',
        platform: 'node',
        banner: { js: banner },
        plugins: [builtinsByRequire],
        logLevel: 'silent',
      })
      assert.deepEqual(result.errors, [])
      const output = readFileSync(join(dir, 'out.mjs'), 'utf8')
      // The banner's node:module is the only import of a built-in left.
      assert.deepEqual(output.match(/^import .* from "[^"]+"/gm) ?? [], [])
      assert.match(output, /__require\("node:http"\)/)
      assert.equal(
        execFileSync(process.execPath, [join(dir, 'out.mjs')], { encoding: 'utf8' }).trim(),
        'Not Found function a/b function',
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
