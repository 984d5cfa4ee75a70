import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Metafile } from 'esbuild'
import { coldPathSharedInputs, entryModules } from './common-chunk'

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
