import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ASSET_ROUTE_CONFIG, pageContentSecurityPolicy, securityHeaders } from '../http/security'
import type { SignInProviderButton } from '../../common/sign-in-providers'
import { etagMatches } from './etag-matches'
import { withoutPasswordSignIn, withSignInProviders } from './sign-in-providers-page'
import {
  loadStaticFileTable,
  PRECOMPRESSED_ENCODINGS,
  tableBytes,
  type PrecompressedEncoding,
  type StaticFile,
} from './static-file-table'

export interface StaticFilesOptions {
  /** The client build: index.html at its top, content-hashed files under assets/. */
  distDir: string
  /**
   * `npm run dev` only: files appear while the server runs (each rebuild), so the table is read
   * again when the page is asked for and when an asset is not in it.
   */
  filesChange?: boolean
  /** Behind HTTPS: the page's CSP is the security plugin's for HTTPS, with its style hashes. */
  https?: boolean
  /** The login page's sign-in provider buttons, written into the served page. */
  signInProviders?: readonly SignInProviderButton[]
  /** PASSWORD_SIGN_IN: false hides the password form but for a toggle (the first admin's). */
  passwordSignIn?: boolean
}

/**
 * Serves the built client from memory. Only two things are public: the page (`/`,
 * `/index.html`) and the hashed files under /assets/. A missing file is a 404, never index.html:
 * routing is in the URL's hash, so the server never has to guess a page for an unknown path.
 *
 * Why not @fastify/static: a CPU profile of it under load showed over a third of the time in
 * stat/open/read for every request, and it reached 0.07–0.11 of nginx's rate on this machine
 * (docs/performance.md). dist/ is a few MB and fixed while the server runs, so it is read once
 * at start, with every header and ETag computed then; a request costs a lookup.
 */
export default fp<StaticFilesOptions>(
  async (
    app,
    { distDir, filesChange = false, https = false, signInProviders = [], passwordSignIn = true },
  ) => {
    const documentHeaders = securityHeaders(https)
    const load = () =>
      loadStaticFileTable(distDir, {
        page: (html) => {
          const withButtons = withSignInProviders(html, signInProviders)
          return passwordSignIn ? withButtons : withoutPasswordSignIn(withButtons)
        },
        pageHeaders: (html) => ({
          'content-security-policy': pageContentSecurityPolicy(https, html),
        }),
      })
    let table = await load()
    app.log.info(
      `static files: ${new Set(table.values()).size} files, ${(tableBytes(table) / 1e6).toFixed(1)} MB in memory`,
    )

    /**
     * The file for a request's path exactly as sent (no decoding, no normalising): a path that is
     * not exactly one of the table's (`..`, `%2e`, `%2f`, `%5c`, a null byte, a sibling's own
     * name) finds nothing, and nothing reads the file system. In development the table is read
     * again when a file is not in it (a rebuild has just written it).
     */
    const fileFor = async (url: string) => {
      let file = table.get(url)
      if (!file && filesChange) {
        table = await load()
        file = table.get(url)
      }
      return file
    }
    const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
      // In development the page is read again on every load: a rebuild changes its script names.
      if (filesChange) table = await load()
      const page = await fileFor('/')
      return page ? send(request, reply, page) : reply.callNotFound()
    }
    app.get('/', sendPage)
    app.get('/index.html', sendPage)
    // One route for every asset, not one per file: the 69 routes (and their HEAD twins) were a
    // share of every start (npm run bench -- --only startup; docs/performance.md).
    app.get('/assets/*', { config: ASSET_ROUTE_CONFIG }, async (request, reply) => {
      const file = await fileFor(request.url.split('?', 1)[0] ?? '')
      if (file) return send(request, reply, file)
      // A missing asset's 404 may be shown as a document: all the security headers, as for
      // any other 404 (http/security.ts), not an asset's few.
      return reply.headers(documentHeaders).callNotFound()
    })
  },
  { name: 'static-files' },
)

/**
 * Browsers send a handful of distinct Accept-Encoding values, so the answers are remembered; the
 * memory is bounded because the header comes from clients, who could send a new one every time.
 */
const MAX_REMEMBERED_HEADERS = 64
const remembered = new Map<string, PrecompressedEncoding | null>()

function preferredEncoding(acceptEncoding: string | undefined): PrecompressedEncoding | null {
  if (!acceptEncoding) return null
  let encoding = remembered.get(acceptEncoding)
  if (encoding === undefined) {
    encoding = negotiate(acceptEncoding, [...PRECOMPRESSED_ENCODINGS])
    if (remembered.size >= MAX_REMEMBERED_HEADERS) remembered.clear()
    remembered.set(acceptEncoding, encoding)
  }
  return encoding
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  const encoding = preferredEncoding(request.headers['accept-encoding'])
  const representation = (encoding && file[encoding]) || file.identity
  const ifNoneMatch = request.headers['if-none-match']
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, representation.etag)) {
    return reply.code(304).headers(representation.notModifiedHeaders).send()
  }
  return reply.headers(representation.headers).send(representation.body)
}
