/**
 * `npx tsx scripts/bench/react-size.ts [version…]`: what React + ReactDOM alone cost in a client
 * bundle, per version (default: the one the panel uses and the newest 19). Each version is
 * installed from the npm registry into a temporary folder, and a minimal `createRoot().render()`
 * is bundled the way the client is (esbuild, minified ESM, production), then brotli-compressed at
 * the build's quality. This is the measurement behind staying on React 18.3 (docs/performance.md,
 * "Performance"); it needs the registry, so it is not part of `npm run bench`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { brotliBytes } from '../build/compress'
import { formatTable, kb } from '../build/report'

const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['18.3.1', '19.3.1']

const rows: string[][] = []
for (const version of versions) {
  const dir = await mkdtemp(join(tmpdir(), `painel-react-${version}-`))
  try {
    await writeFile(join(dir, 'package.json'), '{"private":true}')
    const install = spawnSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--silent',
        `react@${version}`,
        `react-dom@${version}`,
      ],
      { cwd: dir, stdio: 'inherit', timeout: 180_000 },
    )
    if (install.status !== 0) throw new Error(`npm install of React ${version} failed`)
    const result = await build({
      stdin: {
        contents:
          "import { createElement } from 'react'\n" +
          "import { createRoot } from 'react-dom/client'\n" +
          "createRoot(document.body).render(createElement('p'))\n",
        resolveDir: dir,
      },
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      define: { 'process.env.NODE_ENV': '"production"' },
    })
    const code = Buffer.from(result.outputFiles[0]?.contents ?? new Uint8Array())
    const brotli = await brotliBytes(code)
    rows.push([version, kb(code.length), kb(brotli.length)])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
console.log(formatTable(['React + ReactDOM', 'minified', 'brotli'], rows))
