import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Metafile } from 'esbuild'
import { brotliBytes, gzipBytes } from './compress'
import {
  pageStyles,
  routeBytes,
  routeEntryPoints,
  routeFiles,
  type RouteEntryPoints,
} from './route-bytes'

type Output = Metafile['outputs'][string]

function output(
  imports: { path: string; kind: 'import-statement' | 'dynamic-import'; external?: boolean }[],
  extra: Partial<Output> = {},
): Output {
  return { bytes: 100, inputs: {}, exports: [], imports, ...extra }
}

const chunk = (name: string) => `dist/assets/${name}`
const statik = (name: string) => ({ path: chunk(name), kind: 'import-statement' as const })
const lazy = (name: string) => ({ path: chunk(name), kind: 'dynamic-import' as const })

/**
 * A miniature of the real build: the entry shares react with every page, the screen table
 * (its `screens` module) lazily imports the dashboard and the profile, and the login page and the layout
 * share a form-helpers chunk.
 */
const metafile: Metafile = {
  inputs: {},
  outputs: {
    [chunk('main-M.js')]: output(
      [
        statik('react-R.js'),
        statik('screens-S.js'),
        lazy('login-page-L.js'),
        lazy('default-layout-D.js'),
        { path: 'https://cdn.example/x.js', kind: 'import-statement', external: true },
      ],
      { entryPoint: 'client/src/main.tsx', cssBundle: chunk('main-C.css') },
    ),
    [chunk('main-C.css')]: output([]),
    [chunk('color-mode-boot-B.js')]: output([], {
      entryPoint: 'client/src/theme/color-mode-boot.ts',
    }),
    [chunk('react-R.js')]: output([]),
    [chunk('screens-S.js')]: output([
      statik('react-R.js'),
      lazy('dashboard-screen-H.js'),
      lazy('profile-screen-P.js'),
    ]),
    [chunk('forms-F.js')]: output([statik('react-R.js')]),
    [chunk('login-page-L.js')]: output([statik('forms-F.js'), statik('react-R.js')], {
      entryPoint: 'client/src/features/sign-in/login-page.tsx',
    }),
    [chunk('default-layout-D.js')]: output(
      [statik('forms-F.js'), statik('icons-I.js'), lazy('profile-screen-P.js')],
      { entryPoint: 'client/src/layout/default-layout.tsx' },
    ),
    [chunk('icons-I.js')]: output([]),
    [chunk('dashboard-screen-H.js')]: output([statik('icons-I.js'), statik('cards-K.js')], {
      entryPoint: 'client/src/features/dashboard/dashboard-screen.tsx',
    }),
    [chunk('cards-K.js')]: output([statik('react-R.js')]),
    [chunk('profile-screen-P.js')]: output([statik('forms-F.js')], {
      entryPoint: 'client/src/features/my-account/profile-screen.tsx',
    }),
  },
}

/** What routeEntryPoints() makes of route objects at /login and /dashboard. */
const ENTRY_POINTS: RouteEntryPoints = routeEntryPoints({
  routes: [
    { path: '/login', access: 'signed-out', module: 'client/src/features/sign-in/login-page.tsx' },
    {
      path: '/dashboard',
      access: 'signed-in',
      module: 'client/src/features/dashboard/dashboard-screen.tsx',
    },
  ],
  layout: 'client/src/layout/default-layout.tsx',
  fallback: 'client/src/features/error-pages/inner-not-found-screen.tsx',
})

const ENTRY_FILES = [
  'index.html',
  'assets/color-mode-boot-B.js',
  'assets/main-C.css',
  'assets/main-M.js',
  'assets/react-R.js',
  'assets/screens-S.js',
]

describe('routeFiles', () => {
  it('#/login: the entry and its static closure, then the login chunk and its own', () => {
    assert.deepEqual(routeFiles(metafile, ENTRY_POINTS, '#/login'), [
      ...ENTRY_FILES,
      'assets/login-page-L.js',
      'assets/forms-F.js',
    ])
  })

  it('#/dashboard: the layout and the screen with their closures, each file once', () => {
    assert.deepEqual(routeFiles(metafile, ENTRY_POINTS, '#/dashboard'), [
      ...ENTRY_FILES,
      'assets/default-layout-D.js',
      'assets/forms-F.js',
      'assets/icons-I.js',
      'assets/dashboard-screen-H.js',
      'assets/cards-K.js',
    ])
  })

  it('with the boot script inline in the prerendered page, no route fetches it', () => {
    for (const route of ['#/login', '#/dashboard'] as const) {
      assert.ok(routeFiles(metafile, ENTRY_POINTS, route).includes('assets/color-mode-boot-B.js'))
      assert.ok(
        !routeFiles(metafile, ENTRY_POINTS, route, 'sign-in-inline').includes(
          'assets/color-mode-boot-B.js',
        ),
      )
    }
  })

  it("with the sign-in page's CSS inline, #/login fetches no stylesheet and #/dashboard does", () => {
    assert.ok(
      !routeFiles(metafile, ENTRY_POINTS, '#/login', 'sign-in-inline').includes(
        'assets/main-C.css',
      ),
    )
    assert.ok(
      routeFiles(metafile, ENTRY_POINTS, '#/dashboard', 'sign-in-inline').includes(
        'assets/main-C.css',
      ),
    )
  })

  it('tells the two kinds of page apart', () => {
    assert.equal(pageStyles('<link rel="stylesheet" href="assets/main-C.css">'), 'linked')
    assert.equal(
      pageStyles('<style>a{}</style><meta name="painel-stylesheet" content="assets/main-C.css">'),
      'sign-in-inline',
    )
  })

  it('leaves out what is only imported lazily, and external imports', () => {
    const files = [
      ...routeFiles(metafile, ENTRY_POINTS, '#/login'),
      ...routeFiles(metafile, ENTRY_POINTS, '#/dashboard'),
    ]
    assert.ok(!files.includes('assets/profile-screen-P.js'))
    assert.ok(!files.some((file) => file.includes('cdn.example')))
    assert.ok(!routeFiles(metafile, ENTRY_POINTS, '#/login').includes('assets/default-layout-D.js'))
  })

  it('names the missing chunk when the build lacks a route module', () => {
    const outputs = { ...metafile.outputs }
    delete outputs[chunk('login-page-L.js')]
    assert.throws(
      () => routeFiles({ inputs: {}, outputs }, ENTRY_POINTS, '#/login'),
      /client\/src\/features\/sign-in\/login-page\.tsx/,
    )
  })
})

describe('routeEntryPoints', () => {
  it('gives a public page its chunk, an inner screen the layout and its chunk', () => {
    assert.deepEqual(ENTRY_POINTS, {
      '#/login': ['client/src/features/sign-in/login-page.tsx'],
      '#/dashboard': [
        'client/src/layout/default-layout.tsx',
        'client/src/features/dashboard/dashboard-screen.tsx',
      ],
    })
  })

  it('names a measured route no route object declares', () => {
    assert.throws(
      () => routeEntryPoints({ routes: [], layout: 'l.tsx', fallback: 'f.tsx' }),
      /no route object declares \/login/,
    )
  })
})

describe('routeBytes', () => {
  let distDir = ''
  // Big enough to be precompressed by the build; the others are left without siblings.
  const bigScript = Buffer.from('export const x = "painel";\n'.repeat(100))
  const small = Buffer.from('console.log(1)\n')

  before(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'route-bytes-test-'))
    await mkdir(join(distDir, 'assets'))
    for (const file of routeFiles(metafile, ENTRY_POINTS, '#/login')) {
      await writeFile(join(distDir, file), file === 'assets/main-M.js' ? bigScript : small)
    }
    // Siblings with made-up sizes: the figures must come from them, not from compressing again.
    await writeFile(join(distDir, 'assets/main-M.js.gz'), Buffer.alloc(77))
    await writeFile(join(distDir, 'assets/main-M.js.br'), Buffer.alloc(55))
  })

  after(async () => rm(distDir, { recursive: true, force: true }))

  it('reads real siblings, compresses the rest in memory, and adds them up', async () => {
    const bytes = await routeBytes(metafile, '#/login', distDir, ENTRY_POINTS)
    const smallGzip = (await gzipBytes(small)).length
    const smallBrotli = (await brotliBytes(small)).length
    const others = bytes.requests - 1

    assert.equal(bytes.requests, 8)
    assert.deepEqual(
      bytes.files.find((file) => file.file === 'assets/main-M.js'),
      {
        file: 'assets/main-M.js',
        raw: bigScript.length,
        gzip: 77,
        brotli: 55,
        precompressed: true,
      },
    )
    assert.deepEqual(
      bytes.files.find((file) => file.file === 'index.html'),
      {
        file: 'index.html',
        raw: small.length,
        gzip: smallGzip,
        brotli: smallBrotli,
        precompressed: false,
      },
    )
    assert.equal(bytes.raw, bigScript.length + others * small.length)
    assert.equal(bytes.gzip, 77 + others * smallGzip)
    assert.equal(bytes.brotli, 55 + others * smallBrotli)
    // Without siblings the server sends the file as it is.
    assert.equal(bytes.servedBrotli, 55 + others * small.length)
  })
})
