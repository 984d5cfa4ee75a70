import { readFile, writeFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Smaller files gain nothing worth a second round trip of headers; the server sends them as-is. */
export const MIN_COMPRESS_BYTES = 1024

const TEXT_EXTENSIONS = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.txt',
  '.map',
  '.xml',
  '.webmanifest',
])

export function isText(path: string): boolean {
  return TEXT_EXTENSIONS.has(extname(path).toLowerCase())
}

export async function brotliBytes(data: Buffer): Promise<Buffer> {
  return brotli(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  })
}

export async function gzipBytes(data: Buffer): Promise<Buffer> {
  return gz(data, { level: constants.Z_BEST_COMPRESSION })
}

export interface CompressedFile {
  path: string
  raw: number
  gzip: number
  brotli: number
  /** Whether .br and .gz siblings were written (text files of MIN_COMPRESS_BYTES or more). */
  siblings: boolean
}

/**
 * Sizes every file, and writes `.br` (quality 11) and `.gz` (level 9) siblings beside each text
 * file of 1 KB or more, so the server never compresses while answering.
 */
export async function precompress(paths: readonly string[]): Promise<CompressedFile[]> {
  return Promise.all(
    paths.map(async (path) => {
      const data = await readFile(path)
      const [br, gzip] = await Promise.all([brotliBytes(data), gzipBytes(data)])
      const siblings = isText(path) && data.length >= MIN_COMPRESS_BYTES
      if (siblings) {
        await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzip)])
      }
      return { path, raw: data.length, gzip: gzip.length, brotli: br.length, siblings }
    }),
  )
}
