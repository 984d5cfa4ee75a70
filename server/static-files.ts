import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export interface StaticFilesOptions {
  /** The client build: index.html at its top, content-hashed files under assets/. */
  distDir: string
  /**
   * `npm run dev` only: files appear while the server runs (each rebuild), so they are looked up
   * per request instead of being fixed at start.
   */
  filesChange?: boolean
}

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000

/**
 * Serves the built client. Only two things are public: the page (`/`, `/index.html`) and the
 * hashed files under /assets/. Everything else in dist/ (the compiled server, the metafile) is
 * unreachable by construction, and a missing file is a 404, never index.html: routing is in the
 * URL's hash, so the server never has to guess a page for an unknown path.
 */
export default fp<StaticFilesOptions>(
  async (app, { distDir, filesChange = false }) => {
    await app.register(fastifyStatic, {
      root: join(distDir, 'assets'),
      prefix: '/assets/',
      // Routes for exactly the files present at start: dist/ never changes while the server runs,
      // and a path that is not one of them cannot reach the file system at all.
      wildcard: filesChange,
      globIgnore: ['**/*.br', '**/*.gz'],
      preCompressed: true,
      index: false,
      list: false,
      redirect: false,
      dotfiles: 'ignore',
      // A hashed name changes whenever its content does, so a copy never goes stale.
      cacheControl: true,
      maxAge: ONE_YEAR_MS,
      immutable: true,
      etag: true,
      lastModified: false,
    })

    const sendPage = (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        // The page names the current hashed files, so browsers must revalidate it on every load
        // (a 304 when nothing changed); a new deployment is then picked up at once.
        .header('cache-control', 'no-cache')
        .sendFile('index.html', distDir, { cacheControl: false, lastModified: false })

    app.get('/', sendPage)
    app.get('/index.html', sendPage)
  },
  { name: 'static-files' },
)
