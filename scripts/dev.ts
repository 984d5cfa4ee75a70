/**
 * `npm run dev`: esbuild's own watch mode rebuilds the client on every change, and the page
 * reloads itself (live reload over a same-origin event stream, as the CSP requires). The server
 * runs in this process from its sources; `tsx watch` restarts the whole thing when one of them
 * changes. Development builds are unminified, with inline source maps and no precompression.
 */
import { rm, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ServerResponse } from 'node:http'
import { context, type Metafile, type Plugin } from 'esbuild'
import { buildApp } from '../server/app'
import { loadConfig } from '../server/config/config'
import { clientOptions, colorModeBootOptions } from './build/esbuild-options'
import { renderIndexHtml } from './build/index-html'
import { outputFor, staticClosure, stylesheetsFor, toUrl } from './build/metafile'
import { buildInfoPath, clientDir, distDir } from './paths'

const listeners = new Set<ServerResponse>()
const latest: { client?: Metafile; colorMode?: Metafile } = {}

async function writePage(): Promise<void> {
  if (!latest.client || !latest.colorMode) return
  const entry = outputFor(latest.client, 'client/src/main.tsx')
  const html = renderIndexHtml(await readFile(join(clientDir, 'index.html'), 'utf8'), {
    colorModeScript: toUrl(outputFor(latest.colorMode, 'client/src/theme/color-mode-boot.ts')),
    stylesheets: stylesheetsFor(latest.client, [entry]).map(toUrl),
    entryScript: toUrl(entry),
    modulePreloads: staticClosure(latest.client, entry).slice(1).map(toUrl),
    // The favicon is a production nicety; in development the browser's default is fine.
    favicon: 'data:,',
  })
  await writeFile(join(distDir, 'index.html'), html)
  for (const listener of listeners) listener.write('event: reload\ndata: \n\n')
}

const onRebuilt = (which: 'client' | 'colorMode'): Plugin => ({
  name: `painel-dev-${which}`,
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length > 0 || !result.metafile) return
      latest[which] = result.metafile
      await writePage()
      console.log(`[dev] ${which === 'client' ? 'client' : 'colour-mode script'} rebuilt`)
    })
  },
})

// A development build in dist/ is not a production one: make `npm start` rebuild.
await rm(buildInfoPath, { force: true })

const config = loadConfig(process.env)
const app = await buildApp({ ...config, distDir, devMode: true, prettyLogs: true })
app.get('/__dev/live-reload', (request, reply) => {
  reply.hijack()
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
  reply.raw.write(': connected\n\n')
  listeners.add(reply.raw)
  request.raw.on('close', () => listeners.delete(reply.raw))
})

const contexts = await Promise.all([
  context({ ...clientOptions('development'), plugins: [onRebuilt('client')] }),
  context({ ...colorModeBootOptions('development'), plugins: [onRebuilt('colorMode')] }),
])
await Promise.all(contexts.map((ctx) => ctx.watch()))
await app.listen({ port: config.port, host: config.host })
console.log(
  `[dev] Painel on http://${config.host}:${config.port}/ (rebuilds on change, reloads the page)`,
)

const stop = async () => {
  await Promise.all(contexts.map((ctx) => ctx.dispose()))
  for (const listener of listeners) listener.end()
  await app.close()
  process.exit(0)
}
process.once('SIGINT', () => void stop())
process.once('SIGTERM', () => void stop())
