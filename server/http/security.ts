import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'
import fp from 'fastify-plugin'

export interface SecurityOptions {
  /** Behind HTTPS: send HSTS and ask browsers to upgrade any stray http:// sub-request. */
  https: boolean
}

/**
 * Security headers on every response. The client is built so that it needs almost nothing
 * inline: the colour-mode boot script is an external file, styles come from the bundled
 * stylesheet, and CoreUI's icons in that stylesheet are data: URLs (hence img-src data:). The one
 * exception is the sign-in page's CSS, inline in the page (scripts/build/critical-css.ts): the
 * page's own CSP allows exactly that text by its hash (`styleHashes`), and nothing else inline.
 */
export const contentSecurityPolicy = (https: boolean, styleHashes: readonly string[] = []) => ({
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", ...styleHashes.map((hash) => `'${hash}'`)],
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
export function securityHeaders(
  https: boolean,
  styleHashes: readonly string[] = [],
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const collector = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value
    },
    removeHeader: () => {},
  }
  helmet({
    contentSecurityPolicy: contentSecurityPolicy(https, styleHashes),
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

/**
 * CSP source expressions (`sha256-…`) of the page's <style> elements, as browsers hash them: the
 * exact text between the tags, UTF-8. The page is the build's own (index-html.ts writes plain
 * `<style>` tags, never with attributes), so a pattern reads it.
 */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    ([, text]) =>
      `sha256-${createHash('sha256')
        .update(text ?? '', 'utf8')
        .digest('base64')}`,
  )
}

/**
 * The page's Content-Security-Policy: the one every answer carries, with the page's own inline
 * styles allowed by their hashes. Sent with the page and with its 304s (a 304's headers replace
 * the cached ones, so one without the hashes would block the style on the next load).
 */
export function pageContentSecurityPolicy(https: boolean, html: string): string {
  const header = securityHeaders(https, inlineStyleHashes(html))['content-security-policy']
  if (!header) throw new Error('helmet set no Content-Security-Policy')
  return header
}

/**
 * The headers that still mean something on a hashed script or stylesheet (not a document):
 * - nosniff: the browser runs it only if its Content-Type says script or CSS;
 * - Cross-Origin-Resource-Policy: another site cannot load it into its own process;
 * - Referrer-Policy: requests made from a stylesheet (url()) follow the stylesheet's own policy;
 * - HSTS, when on: it is about the host, and any answer may carry it.
 * The others govern documents only: a CSP applies to the document (or worker) it arrives with,
 * and the panel starts no worker (worker-src 'none'); X-Frame-Options, COOP, Origin-Agent-Cluster,
 * X-XSS-Protection, X-DNS-Prefetch-Control, X-Download-Options and
 * X-Permitted-Cross-Domain-Policies are read from documents (or downloads and plugins, which
 * these files are not). Sent with every asset they were ~650 bytes on each of the five assets
 * of a cold load, for nothing.
 */
const ASSET_HEADER_NAMES = [
  'x-content-type-options',
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
]

export function assetSecurityHeaders(https: boolean): Readonly<Record<string, string>> {
  const all = securityHeaders(https)
  return Object.fromEntries(
    ASSET_HEADER_NAMES.filter((name) => all[name] !== undefined).map((name) => [name, all[name]!]),
  )
}

/**
 * A route's `config` that marks it as serving a hashed asset (static-files.ts): its answers get
 * assetSecurityHeaders. Every other answer, the page and every error (a missing asset's 404
 * included: a browser may show it as a document), gets them all.
 */
export const ASSET_ROUTE_CONFIG = { securityHeaders: 'asset' } as const

/** Security headers on every response, the 404s and errors included. */
export default fp<SecurityOptions>(
  async (app, options) => {
    const headers = securityHeaders(options.https)
    const assetHeaders = assetSecurityHeaders(options.https)
    app.addHook('onRequest', (request, reply, done) => {
      const config = request.routeOptions.config as { securityHeaders?: string } | undefined
      reply.headers(config?.securityHeaders === 'asset' ? assetHeaders : headers)
      done()
    })
  },
  { name: 'security' },
)
