// The start-up section's yardstick: a Fastify server with one route and nothing else, started the
// way the Painel server is (plain `node <file>`, the same environment, the compile cache on where
// Node has one, as server/main.ts turns it on). What Painel takes beyond it is Painel's own work.
import nodeModule from 'node:module'

;/** @type {{ enableCompileCache?: () => unknown }} */ (nodeModule).enableCompileCache?.()
const { default: Fastify } = await import('fastify')
const app = Fastify({ logger: false })
app.get('/healthz', async () => ({ status: 'ok' }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
