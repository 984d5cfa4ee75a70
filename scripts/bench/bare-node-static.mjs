// The throughput section's second yardstick: Node's own http module serving the same dist/ from
// memory, with no framework, no hooks and only the headers nginx sends there (Content-Type,
// Cache-Control, Vary, ETag, Content-Encoding). It is the floor of any Node server: what Painel
// costs beyond it is Fastify and Painel's own work (security headers, request id, metrics, drain),
// and what it costs beyond nginx is Node itself (scripts/bench/throughput.ts prints both).
// Usage: PORT=<port> node scripts/bench/bare-node-static.mjs <dist folder>
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join } from 'node:path'

const distDir = process.argv[2]
if (!distDir) throw new Error('usage: node bare-node-static.mjs <dist folder>')

// As Painel sends them (server/static/static-file-table.ts) and nginx in the bench (nginx.ts).
/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}
const PAGE_CACHE = 'no-cache'
const ASSET_CACHE = 'public, max-age=31536000, immutable'

/**
 * @typedef {{ body: Buffer, etag: string, headers: Record<string, string | number>,
 *   notModified: Record<string, string> }} Representation
 * @typedef {{ raw: Representation, br: Representation | null, gzip: Representation | null }} Entry
 */

/**
 * The file and its .br/.gz siblings, each with its precomputed headers.
 * @param {string} path
 * @param {string} cacheControl
 * @returns {Entry}
 */
function entry(path, cacheControl) {
  const type = TYPES[extname(path)] ?? 'application/octet-stream'
  /** @type {(file: string, encoding: string | null) => Representation} */
  const representation = (file, encoding) => {
    const body = readFileSync(file)
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`
    const headers = {
      'content-type': type,
      'cache-control': cacheControl,
      vary: 'Accept-Encoding',
      etag,
      'content-length': body.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    }
    const notModified = { 'cache-control': cacheControl, vary: 'Accept-Encoding', etag }
    return { body, etag, headers, notModified }
  }
  return {
    raw: representation(path, null),
    br: existsSync(`${path}.br`) ? representation(`${path}.br`, 'br') : null,
    gzip: existsSync(`${path}.gz`) ? representation(`${path}.gz`, 'gzip') : null,
  }
}

/** @type {Map<string | undefined, Entry>} */
const files = new Map()
const page = entry(join(distDir, 'index.html'), PAGE_CACHE)
files.set('/', page)
files.set('/index.html', page)
for (const name of readdirSync(join(distDir, 'assets'))) {
  if (name.endsWith('.br') || name.endsWith('.gz')) continue
  files.set(`/assets/${name}`, entry(join(distDir, 'assets', name), ASSET_CACHE))
}

createServer((request, response) => {
  const file = files.get(request.url)
  if (!file) {
    response.writeHead(404, { 'content-length': 0 }).end()
    return
  }
  const accepted = request.headers['accept-encoding'] ?? ''
  const chosen =
    (file.br && /\bbr\b/.test(accepted) && file.br) ||
    (file.gzip && /\bgzip\b/.test(accepted) && file.gzip) ||
    file.raw
  if (request.headers['if-none-match'] === chosen.etag) {
    response.writeHead(304, chosen.notModified).end()
    return
  }
  response.writeHead(200, chosen.headers).end(chosen.body)
}).listen(Number(process.env.PORT), '127.0.0.1')
