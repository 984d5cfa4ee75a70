import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { build, type Metafile } from 'esbuild'
import {
  COMMON_CHUNK_IMPORT,
  coldPathSharedInputs,
  commonChunkPlugin,
  entryModules,
} from './common-chunk'

/** A build as esbuild describes it: the entry, two lazy pages, a screen, and shared chunks. */
const metafile = {
  inputs: {},
  outputs: {
    'dist/assets/main.js': {
      entryPoint: 'src/main.tsx',
      imports: [
        { path: 'dist/assets/chunk-react.js', kind: 'import-statement' },
        { path: 'dist/assets/login.js', kind: 'dynamic-import' },
        { path: 'dist/assets/screen.js', kind: 'dynamic-import' },
      ],
      inputs: {
        'src/main.tsx': {},
        'src/app/router.tsx': {},
        'src/app/app.css': {},
        'node_modules/react-dom/client.js': {},
      },
    },
    'dist/assets/login.js': {
      entryPoint: 'src/pages/login-page.tsx',
      imports: [
        { path: 'dist/assets/chunk-react.js', kind: 'import-statement' },
        { path: 'dist/assets/chunk-forms.js', kind: 'import-statement' },
      ],
      inputs: { 'src/pages/login-page.tsx': {} },
    },
    'dist/assets/register.js': {
      entryPoint: 'src/pages/register-page.tsx',
      imports: [{ path: 'dist/assets/chunk-forms.js', kind: 'import-statement' }],
      inputs: { 'src/pages/register-page.tsx': {} },
    },
    'dist/assets/screen.js': {
      entryPoint: 'src/screens/dashboard-screen.tsx',
      imports: [{ path: 'dist/assets/chunk-icons.js', kind: 'import-statement' }],
      inputs: { 'src/screens/dashboard-screen.tsx': {} },
    },
    'dist/assets/chunk-react.js': {
      imports: [],
      inputs: { 'node_modules/react/index.js': {}, 'src/messages.ts': {} },
    },
    'dist/assets/chunk-forms.js': { imports: [], inputs: { 'src/forms/form-field.tsx': {} } },
    'dist/assets/chunk-icons.js': { imports: [], inputs: { 'src/layout/screen-icons.ts': {} } },
  },
} as unknown as Metafile

describe('the common chunk', () => {
  it('lists every entry point and lazily imported module', () => {
    assert.deepEqual(entryModules(metafile).sort(), [
      'src/main.tsx',
      'src/pages/login-page.tsx',
      'src/pages/register-page.tsx',
      'src/screens/dashboard-screen.tsx',
    ])
  })

  it('pins the app scripts of the public cold paths (shared chunks, the entry’s own), not packages, stylesheets, pages or screens', () => {
    assert.deepEqual(
      coldPathSharedInputs(metafile, 'src/main.tsx', [
        'src/pages/login-page.tsx',
        'src/pages/register-page.tsx',
      ]),
      ['src/app/router.tsx', 'src/forms/form-field.tsx', 'src/messages.ts'],
    )
  })

  it('fails loudly for an entry the build did not make', () => {
    assert.throws(
      () => coldPathSharedInputs(metafile, 'src/main.tsx', ['src/pages/gone-page.tsx']),
      /gone-page/,
    )
  })
})

describe('commonChunkPlugin', () => {
  it("leaves the app's own files to esbuild's resolver, so they keep their module type", async () => {
    // An app file (in a "type": "module" package) that only the common chunk imports: resolved
    // by the plugin, it had no module type, and its CommonJS import lost Node's interop flag;
    // with a second importer, which one came first decided (the same sources gave two builds).
    const dir = await mkdtemp(join(tmpdir(), 'common-chunk-'))
    try {
      await writeFile(join(dir, 'package.json'), '{"type":"module"}')
      await writeFile(join(dir, 'legacy.cjs'), 'module.exports = { answer: 42 }')
      await writeFile(join(dir, 'app.js'), "import legacy from './legacy.cjs'\nconsole.log(legacy)")
      await writeFile(join(dir, 'main.js'), COMMON_CHUNK_IMPORT)
      const result = await build({
        absWorkingDir: dir,
        entryPoints: ['main.js'],
        bundle: true,
        write: false,
        format: 'esm',
        plugins: [commonChunkPlugin({ workingDir: dir, sharedInputs: ['app.js'] })],
      })
      const output = result.outputFiles[0]?.text ?? ''
      assert.match(output, /__toESM\(require_legacy\(\), 1\)/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
