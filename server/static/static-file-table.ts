import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'

/** The encodings the build precompresses into siblings, in the order the server prefers them. */
export const PRECOMPRESSED_ENCODINGS = ['br', 'gzip'] as const
export type PrecompressedEncoding = (typeof PRECOMPRESSED_ENCODINGS)[number]

const SIBLING_EXTENSION: Record<PrecompressedEncoding, string> = { br: '.br', gzip: '.gz' }

/** One byte-exact representation of a file: as built, or one of its precompressed siblings. */
export interface Representation {
  body: Buffer
  /** Strong: it names these exact bytes, so each encoding of a file has its own. */
  etag: string
  /** Everything a 200 carries besides the body (Fastify adds Content-Length). */
  headers: Readonly<Record<string, string>>
  /** What a 304 repeats of it: the validators and caching rules, no content headers. */
  notModifiedHeaders: Readonly<Record<string, string>>
}

export interface StaticFile {
  identity: Representation
  br?: Representation
  gzip?: Representation
}

/** URL path (`/`, `/index.html`, `/assets/<name>`) to the file it answers with. */
export type StaticFileTable = ReadonlyMap<string, StaticFile>

/**
 * The page names the current hashed files, so browsers must revalidate it on every load (a 304
 * when nothing changed) and pick up a new deployment at once; a hashed name changes whenever its
 * content does, so a copy of it never goes stale.
 */
export const PAGE_CACHE_CONTROL = 'no-cache'
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable'

/**
 * The kinds of file the build writes. A table rather than a MIME library: it is read once at
 * start, and it keeps JavaScript on `text/javascript` (RFC 9239).
 */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
}

export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Reads the client build into memory: the page at `/` and `/index.html`, and every file under
 * assets/ at `/assets/<path>`. Nothing else in dist/ (the compiled server, the metafile) gets a
 * URL, nor do dotfiles or the .br/.gz siblings themselves: they are representations of their file.
 * dist/ never changes while a production server runs, and is a few MB.
 *
 * Read synchronously, before the server listens: 200 reads through promises and the thread pool,
 * and every script decoded as text though only the page is read as text, were 50-100 ms of each
 * start on the development machine (npm run bench -- --only startup; now a few ms).
 */
export async function loadStaticFileTable(
  distDir: string,
  {
    pageHeaders = () => ({}),
    page: pageText,
  }: {
    /** Headers of the page's own, from its text (its CSP allows its inline styles by hash). */
    pageHeaders?: (html: string) => Readonly<Record<string, string>>
    /**
     * The page as served, from the page as built (the sign-in providers written in:
     * sign-in-providers-page.ts). Applied before the ETag, the headers and the br/gzip
     * siblings are made; a page it changes is compressed again here, once.
     */
    page?: (html: string) => string
  } = {},
): Promise<Map<string, StaticFile>> {
  const table = new Map<string, StaticFile>()
  const page = await readStaticFile(
    join(distDir, 'index.html'),
    PAGE_CACHE_CONTROL,
    pageHeaders,
    pageText,
  )
  if (page) {
    table.set('/', page)
    table.set('/index.html', page)
  }
  const assetsDir = join(distDir, 'assets')
  for (const relativePath of listAssets(assetsDir)) {
    const file = await readStaticFile(join(assetsDir, relativePath), ASSET_CACHE_CONTROL)
    if (file) table.set(`/assets/${relativePath.split('\\').join('/')}`, file)
  }
  return table
}

/** Total bytes held, all representations included (for the start-up log line). */
export function tableBytes(table: StaticFileTable): number {
  let bytes = 0
  for (const file of new Set(table.values())) {
    for (const representation of [file.identity, file.br, file.gzip]) {
      bytes += representation?.body.length ?? 0
    }
  }
  return bytes
}

function listAssets(assetsDir: string): string[] {
  let entries
  try {
    entries = readdirSync(assetsDir, { recursive: true, withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(assetsDir.length + 1))
    .filter((path) => !path.split(/[\\/]/).some((part) => part.startsWith('.')))
    .filter((path) => !path.endsWith('.br') && !path.endsWith('.gz'))
}

async function readStaticFile(
  path: string,
  cacheControl: string,
  headersOf?: (text: string) => Readonly<Record<string, string>>,
  rewrite?: (text: string) => string,
): Promise<StaticFile | null> {
  const built = readIfPresent(path)
  if (!built) return null
  // Only a file something reads as text (the page) is decoded.
  const builtText = rewrite || headersOf ? built.toString('utf8') : null
  const text = builtText === null ? null : (rewrite?.(builtText) ?? builtText)
  const rewritten = text !== builtText
  const body = rewritten && text !== null ? Buffer.from(text, 'utf8') : built
  const contentType = contentTypeOf(path)
  const own = (text !== null && headersOf?.(text)) || {}
  const file: StaticFile = { identity: representation(body, contentType, cacheControl, own) }
  for (const encoding of PRECOMPRESSED_ENCODINGS) {
    const sibling = readIfPresent(path + SIBLING_EXTENSION[encoding])
    if (!sibling) continue
    // The build's sibling is of the page as built: a rewritten page is compressed anew.
    const compressed = rewritten ? compress(body, encoding) : sibling
    file[encoding] = representation(compressed, contentType, cacheControl, own, encoding)
  }
  return file
}

function compress(body: Buffer, encoding: PrecompressedEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipSync(body, { level: 9 })
}

function representation(
  body: Buffer,
  contentType: string,
  cacheControl: string,
  own: Readonly<Record<string, string>>,
  encoding?: PrecompressedEncoding,
): Representation {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  // Vary on every file, also those without siblings: a cache keyed without it could hand a
  // brotli body to a client that did not ask for one when a sibling appears in a later build.
  // A file's own headers (the page's CSP) go with its 304s too: they replace the cached ones.
  const notModifiedHeaders = {
    ...own,
    'cache-control': cacheControl,
    vary: 'accept-encoding',
    etag,
  }
  return {
    body,
    etag,
    notModifiedHeaders,
    headers: {
      ...notModifiedHeaders,
      'content-type': contentType,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    },
  }
}

function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EISDIR') return null
    throw error
  }
}
