import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { BuildOptions } from 'esbuild'
import { assetsDir, clientSrc, root, serverOut } from '../paths'
import { builtinsByRequire } from './builtins-by-require'

export const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string
}

export type Mode = 'production' | 'development'

/** Browsers with native ES modules, modulepreload and CSS nesting: what CoreUI 5 targets too. */
const BROWSERS = ['chrome111', 'edge111', 'firefox114', 'safari16.4']

/** The app: one small entry, a chunk per lazily imported page or screen, shared chunks between. */
export function clientOptions(mode: Mode): BuildOptions {
  const production = mode === 'production'
  return {
    absWorkingDir: root,
    entryPoints: { main: join(clientSrc, 'main.tsx') },
    outdir: assetsDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: BROWSERS,
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    loader: {
      '.svg': 'file',
      '.png': 'file',
      '.woff': 'file',
      '.woff2': 'file',
    },
    define: {
      'process.env.NODE_ENV': JSON.stringify(mode),
      __DEV__: JSON.stringify(!production),
      __APP_VERSION__: JSON.stringify(version),
    },
    minify: production,
    // pt-BR text as UTF-8, not \uXXXX escapes: "ç" is 2 bytes instead of 6 (the server sends
    // scripts and stylesheets as charset=utf-8).
    charset: 'utf8',
    sourcemap: production ? false : 'inline',
    legalComments: production ? 'external' : 'inline',
    metafile: true,
    logLevel: 'warning',
  }
}

/**
 * The colour-mode boot script: a classic (blocking) script in <head>, so the stored mode is on
 * <html> before the first paint. It is a separate build because a classic script cannot import
 * a shared chunk.
 */
export function colorModeBootOptions(mode: Mode): BuildOptions {
  const production = mode === 'production'
  return {
    absWorkingDir: root,
    entryPoints: { 'color-mode-boot': join(clientSrc, 'theme', 'color-mode-boot.ts') },
    outdir: assetsDir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: BROWSERS,
    entryNames: '[name]-[hash]',
    minify: production,
    sourcemap: production ? false : 'inline',
    metafile: true,
    logLevel: 'warning',
  }
}

/**
 * Packages the server bundle leaves to node_modules (installed beside it by `npm ci --omit=dev`):
 * native code (libsql), packages that load files of their own at run time (PGlite's WebAssembly,
 * pino's transport worker found through __dirname, which an ES module bundle has not), and the
 * ones only some configurations load, with require() when they do (pg for DATABASE_URL,
 * nodemailer for SMTP_URL, pg's optional native binding).
 */
export const SERVER_EXTERNALS = [
  'libsql',
  '@electric-sql/pglite',
  'pino-pretty',
  'pg',
  'pg-native',
  'nodemailer',
]

/**
 * Bundled CommonJS packages require() the externals (fastify → pino) and Node's built-ins: an ES
 * module has no require of its own, so every chunk of a bundle gets one.
 */
export const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"

/**
 * The server, compiled so production runs plain `node dist/server/main.js`, and beside it the
 * container's healthcheck (`dist/server/healthcheck.js`, see the Dockerfile) and the backup
 * command. Every other package is bundled in: a start spent half its time finding, reading and
 * compiling hundreds of package files one by one (TypeBox and Kysely alone are 600), which one
 * file saves (`npm run bench -- --only startup`, docs/performance.md).
 */
export function serverOptions(): BuildOptions {
  return {
    absWorkingDir: root,
    // The server's output name comes from serverOut, which `npm start` and the build check use.
    entryPoints: {
      [basename(serverOut, '.js')]: join(root, 'server', 'main.ts'),
      healthcheck: join(root, 'server', 'health', 'healthcheck.ts'),
      backup: join(root, 'server', 'backup.ts'),
    },
    outdir: dirname(serverOut),
    bundle: true,
    external: SERVER_EXTERNALS,
    banner: { js: REQUIRE_BANNER },
    format: 'esm',
    // main.ts loads the app with import() once DATA_DIR is claimed: a chunk of its own, so that
    // a process refused for a DATA_DIR in use never loads the rest of the server. The lock (with
    // the SQLite binding) is a chunk of its own too, loaded after the first admin's hash begins.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    target: 'node20.19',
    // Whitespace and comments out, names kept (a stack trace still names its functions): the
    // start reads, decodes and parses 4.1 MB instead of 6.0, 20-30 ms of a 430 ms restart. The
    // full minifier saved less (its syntax rewrites cost V8 time back), docs/performance.md.
    minifyWhitespace: true,
    // The licences' notices in files beside the chunks: some of them are not ASCII, and one
    // character outside it makes V8 hold and scan a whole chunk as two-byte text.
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [builtinsByRequire],
  }
}
