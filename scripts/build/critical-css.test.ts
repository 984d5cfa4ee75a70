import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Metafile } from 'esbuild'
import { signInSources } from './critical-css'

type Output = Metafile['outputs'][string]
const output = (
  inputs: string[],
  imports: [string, 'import-statement' | 'dynamic-import'][],
  entryPoint?: string,
): Output => ({
  bytes: 1,
  inputs: Object.fromEntries(inputs.map((input) => [input, { bytesInOutput: 1 }])),
  imports: imports.map(([path, kind]) => ({ path, kind })),
  exports: [],
  ...(entryPoint ? { entryPoint } : {}),
})

const metafile: Metafile = {
  inputs: {},
  outputs: {
    'dist/assets/main-M.js': output(
      ['client/src/main.tsx'],
      [['dist/assets/shared-S.js', 'import-statement']],
      'client/src/main.tsx',
    ),
    // The shared chunk holds the router: it imports every page lazily.
    'dist/assets/shared-S.js': output(
      [
        'client/src/app/router.tsx',
        'node_modules/@coreui/react/dist/esm/components/button/CButton.js',
      ],
      [
        ['dist/assets/login-page-L.js', 'dynamic-import'],
        ['dist/assets/dashboard-D.js', 'dynamic-import'],
      ],
    ),
    'dist/assets/login-page-L.js': output(
      ['client/src/features/sign-in/login-page.tsx'],
      [
        ['dist/assets/shared-S.js', 'import-statement'],
        ['dist/assets/mfa-step-F.js', 'dynamic-import'],
      ],
      'client/src/features/sign-in/login-page.tsx',
    ),
    'dist/assets/mfa-step-F.js': output(['client/src/features/sign-in/mfa-step.tsx'], []),
    'dist/assets/dashboard-D.js': output(
      ['client/src/features/dashboard/dashboard-screen.tsx'],
      [],
    ),
    'dist/assets/boot-B.js': output(
      ['client/src/prerender/boot.ts', 'node_modules/some-lib/index.js'],
      [],
      'client/src/theme/color-mode-boot.ts',
    ),
  },
}

describe('signInSources', () => {
  const sources = signInSources(metafile, {
    entry: 'client/src/main.tsx',
    loginPage: 'client/src/features/sign-in/login-page.tsx',
    colorModeBoot: 'client/src/theme/color-mode-boot.ts',
  })

  it("takes the entry's, the login page's, what it loads later, and the boot script's", () => {
    for (const source of [
      'client/src/main.tsx',
      'client/src/app/router.tsx',
      'node_modules/@coreui/react/dist/esm/components/button/CButton.js',
      'client/src/features/sign-in/login-page.tsx',
      'client/src/features/sign-in/mfa-step.tsx',
      'client/src/prerender/boot.ts',
    ])
      assert.ok(sources.includes(source), source)
  })

  it('leaves out the other pages the shared chunk imports, and packages that render nothing', () => {
    assert.ok(!sources.includes('client/src/features/dashboard/dashboard-screen.tsx'))
    assert.ok(!sources.includes('node_modules/some-lib/index.js'))
  })
})
