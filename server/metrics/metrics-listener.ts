import { createServer, type Server } from 'node:http'
import fp from 'fastify-plugin'
import { protocolError } from '../http/protocol-errors'
import type { PanelMetrics } from './panel-metrics'

export interface MetricsListenerOptions {
  metrics: PanelMetrics
  port: number
  host: string
}

/**
 * METRICS_PORT: `GET /metrics` in Prometheus' text format on a listener of its own, never on the
 * public port (which answers 404 there): the figures say how busy the panel is and how sign-ins
 * go, nothing for the internet. Opened when the app is ready, so a port in use stops start-up;
 * closed with the app.
 */
export default fp<MetricsListenerOptions>(
  async (app, { metrics, port, host }) => {
    const server: Server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0]
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
        response.end(JSON.stringify(protocolError(404)))
        return
      }
      metrics.registry.metrics().then(
        (text) => {
          response.writeHead(200, { 'content-type': metrics.registry.contentType })
          response.end(request.method === 'HEAD' ? undefined : text)
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics: collecting failed')
          response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
          response.end(JSON.stringify(protocolError(500)))
        },
      )
    })
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          resolve()
        })
      })
      app.log.info(`metrics on http://${host}:${port}/metrics`)
    })
    app.addHook('onClose', async () => {
      if (!server.listening) return
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    })
  },
  { name: 'metrics-listener' },
)
