import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'
import fp from 'fastify-plugin'

export interface SecurityOptions {
  /** Behind HTTPS: send HSTS and ask browsers to upgrade any stray http:// sub-request. */
  https: boolean
}

/**
 * Security headers on every response. The client is built so that it needs nothing inline:
 * the colour-mode boot script is an external file, styles come from the bundled stylesheet, and
 * CoreUI's icons in that stylesheet are data: URLs (hence img-src data:).
 */
export const contentSecurityPolicy = (https: boolean) => ({
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'manifest-src': ["'self'"],
    'worker-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  },
})

/**
 * The headers helmet sets for the panel's options, computed once. They depend on nothing in the
 * request (no nonces: nothing is inline), so running helmet's middleware on every request, as
 * @fastify/helmet does (it even builds the middleware anew each time), would only recompute the
 * same strings: a CPU profile of `npm run bench` put 8% of the server's time there.
 */
export function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const collector = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value
    },
    removeHeader: () => {},
  }
  helmet({
    contentSecurityPolicy: contentSecurityPolicy(https),
    // HSTS over plain HTTP is ignored by browsers and misleading to readers of the headers.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The panel is never framed (frame-ancestors above); this is the same rule for old browsers.
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  })({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    // helmet 8 throws on bad options itself; an error passed here would be the same mistake.
    if (error) throw error instanceof Error ? error : new Error('helmet refused its options')
  })
  return headers
}

/** Security headers on every response, the 404s and errors included. */
export default fp<SecurityOptions>(
  async (app, options) => {
    const headers = securityHeaders(options.https)
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers)
      done()
    })
  },
  { name: 'security' },
)
