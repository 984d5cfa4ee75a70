/**
 * The server over the scale bench's filled database, as a process of its own (scale.ts measures
 * its memory and /healthz from outside): the environment's settings, as `npm start` reads them,
 * and a one-page dist/ (the routes measured are the API's). Prints nothing; stops on SIGTERM.
 *
 * Asked `loop` over its IPC channel, it answers the event loop's longest stall since it was last
 * asked (perf_hooks, in this process): what issue 42's "no request holds the event loop for more
 * than 50 ms" is about, without the probe's own waits for a core on a busy machine. With it, the
 * longest garbage collection since then, which tells a stall V8 made from one the server's code did.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config/config'

const loop = monitorEventLoopDelay({ resolution: 1 })
loop.enable()
let gcMaxMs = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, entry.duration)
}).observe({ entryTypes: ['gc'] })
process.on('message', (message) => {
  if (message !== 'loop') return
  process.send?.({ loopMaxMs: loop.max / 1e6, gcMaxMs })
  loop.reset()
  gcMaxMs = 0
})

const config = loadConfig(process.env)
const distDir = mkdtempSync(join(tmpdir(), 'painel-scale-server-dist-'))
writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>Painel</title>')
const app = await buildApp({ ...config, distDir })
process.once('SIGTERM', () => {
  void app.close().finally(() => {
    rmSync(distDir, { recursive: true, force: true })
    process.exit(0)
  })
})
await app.listen({ port: config.port, host: config.host })
