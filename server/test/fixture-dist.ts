import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'

/**
 * A small dist/ for server tests, known byte for byte, beside a secret file that no request may
 * ever read. The real build is covered by the Playwright suites.
 */
export interface FixtureDist {
  /** The folder holding dist/ and the secret: removed by cleanup(). */
  base: string
  distDir: string
  indexHtml: string
  /** A hashed script of more than 1 KB, with .br and .gz siblings. */
  script: { url: string; body: string }
  /** A hashed stylesheet under 1 KB, without siblings. */
  smallStyle: { url: string; body: string }
  /** A text that sits outside dist/assets and must never be served. */
  secret: string
  cleanup: () => Promise<void>
}

export async function createFixtureDist(): Promise<FixtureDist> {
  const base = await mkdtemp(join(tmpdir(), 'painel-dist-'))
  const distDir = join(base, 'dist')
  await mkdir(join(distDir, 'assets'), { recursive: true })
  await mkdir(join(distDir, 'server'), { recursive: true })

  const secret = 'SECRET-DO-NOT-SERVE-7f3a'
  // The sign-in page's CSS is inline in the real page (scripts/build/critical-css.ts); non-ASCII
  // text included, since browsers hash the UTF-8 bytes.
  const INLINE_STYLE = '.painel-x::after{content:"Não"}'
  // So is the boot script (client/src/theme/color-mode-boot.ts); a data block is not a script.
  const INLINE_SCRIPT = 'document.documentElement.dataset.coreuiTheme="escuro ou não"'
  const indexHtml = `<!doctype html><html lang="pt-BR"><head><title>Painel</title><script>${INLINE_SCRIPT}</script><style>${INLINE_STYLE}</style><script type="application/json">[]</script></head><body>${'<!-- padding -->'.repeat(80)}</body></html>`
  const scriptBody = `export const answer = 42;\n${'console.log("painel");\n'.repeat(100)}`
  const styleBody = 'body{margin:0}'

  const withSiblings = async (path: string, body: string) => {
    await writeFile(path, body)
    await writeFile(`${path}.br`, brotliCompressSync(body))
    await writeFile(`${path}.gz`, gzipSync(body))
  }
  await withSiblings(join(distDir, 'index.html'), indexHtml)
  await withSiblings(join(distDir, 'assets', 'main-ABCD1234.js'), scriptBody)
  await writeFile(join(distDir, 'assets', 'small-EFGH5678.css'), styleBody)
  await writeFile(join(distDir, 'assets', '.hidden-IJKL9012.js'), secret)
  await writeFile(join(distDir, 'metafile.json'), JSON.stringify({ secret }))
  await writeFile(join(distDir, 'server', 'main.js'), `// ${secret}`)
  await writeFile(join(base, 'secret.txt'), secret)

  return {
    base,
    distDir,
    indexHtml,
    script: { url: '/assets/main-ABCD1234.js', body: scriptBody },
    smallStyle: { url: '/assets/small-EFGH5678.css', body: styleBody },
    secret,
    cleanup: () => rm(base, { recursive: true, force: true }),
  }
}
