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
 * inline: scripts and styles come from bundled files, and CoreUI's icons in the stylesheet are
 * data: URLs (hence img-src data:). The exceptions are two texts of the prerendered page: the
 * sign-in page's CSS (scripts/build/critical-css.ts) and the boot script that must run before the
 * first paint (client/src/theme/color-mode-boot.ts), whose own request was the whole remaining
 * wait for that paint. The page's own CSP allows exactly those texts by their hashes
 * (`inlineHashes`), and nothing else inline: no 'unsafe-inline', no 'unsafe-eval'.
 */
export interface InlineHashes {
  styles: readonly string[]
  scripts: readonly string[]
}

const NO_INLINE: InlineHashes = { styles: [], scripts: [] }
const sources = (hashes: readonly string[]) => hashes.map((hash) => `'${hash}'`)

export const contentSecurityPolicy = (https: boolean, inline: InlineHashes = NO_INLINE) => ({
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...sources(inline.scripts)],
    'style-src': ["'self'", ...sources(inline.styles)],
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
 * request (no nonces: what is inline is the build's own, allowed by hash), so running helmet's middleware on every request, as
 * @fastify/helmet does (it even builds the middleware anew each time), would only recompute the
 * same strings: a CPU profile of `npm run bench` put 8% of the server's time there.
 */
export function securityHeaders(
  https: boolean,
  inline: InlineHashes = NO_INLINE,
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const collector = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value
    },
    removeHeader: () => {},
  }
  helmet({
    contentSecurityPolicy: contentSecurityPolicy(https, inline),
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

const sha256Source = (text: string) =>
  `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`

/**
 * CSP source expressions (`sha256-…`) of the page's <style> elements, as browsers hash them: the
 * exact text between the tags, UTF-8. The page is the build's own (index-html.ts writes plain
 * `<style>` tags, never with attributes), so a pattern reads it.
 */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text]) =>
    sha256Source(text ?? ''),
  )
}

/**
 * The same for the page's scripts that run: plain `<script>` tags (index-html.ts writes the boot
 * script so). A data block (`<script type="application/json">`, the sign-in providers'
 * list) never runs, so the CSP has nothing to say about it, and a script with a `src` is a file.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, text]) =>
    sha256Source(text ?? ''),
  )
}

/**
 * The page's Content-Security-Policy: the one every answer carries, with the page's own inline
 * styles and boot script allowed by their hashes. Sent with the page and with its 304s (a 304's
 * headers replace the cached ones, so one without the hashes would block them on the next load).
 */
export function pageContentSecurityPolicy(https: boolean, html: string): string {
  const header = securityHeaders(https, {
    styles: inlineStyleHashes(html),
    scripts: inlineScriptHashes(html),
  })['content-security-policy']
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
