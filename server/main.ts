import * as nodeModule from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import closeWithGrace from 'close-with-grace'
import { ConfigError, loadConfig, type Config } from './config/config'
import { exitOnDataDirError } from './db/data-dir-error'
import type { BegunHash } from './accounts/first-admin'
import { hashPasswordAtStart } from './accounts/passwords'
import { holdsDatabase } from './db/data-dir'
import type { DataDirLock } from './db/data-dir-lock'
import { DEFAULT_DRAIN } from './http/drain'

/**
 * The last resort after SIGTERM/SIGINT (exit 1): the drain (http/drain.ts) gives requests in
 * flight DEFAULT_DRAIN.graceMs, then the database gets a few seconds to close.
 */
const SHUTDOWN_LIMIT_MS = DEFAULT_DRAIN.graceMs + 5000

function hashBeforeLoading(password: string): BegunHash {
  const hash = hashPasswordAtStart(password)
  // Awaited, and its failure thrown, by the first admin's creation; never awaited when the start
  // fails before it.
  hash.catch(() => {})
  return { password, hash }
}

function readConfig(): Config {
  try {
    return loadConfig(process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    // Before the logger exists: one plain message on stderr, exit code 78 (EX_CONFIG).
    process.stderr.write(`painel: ${error.message}\n`)
    process.exit(78)
  }
}

// Node 22.1+ keeps the V8 code of the bundle it compiled in a cache (NODE_COMPILE_CACHE, else
// the temporary folder), so a restart does not compile the server's megabytes again. Node 20
// has no such cache and skips this.
;(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.()

const config = readConfig()
// This file runs compiled, as dist/server/main.js: the client build sits one level up.
const distDir = join(dirname(fileURLToPath(import.meta.url)), '..')

const embedded = config.databaseUrl === null && config.apiUpstream === null
const dataDir = resolve(config.dataDir)

// A DATA_DIR with no database is a first start, whose slowest step is ADMIN_PASSWORD's hash
// (scrypt, slow on purpose, on libuv's threads): begun now, before the rest of the server loads,
// it is made on another core while the server does (docs/performance.md, "A short start"). The
// first admin's creation awaits it. This entry's own imports are light for that reason: the
// SQLite binding and TypeBox load after it has begun (scripts/build/server-bundle.test.ts). A
// process then refused for its DATA_DIR (in use by a server in its own first start, or
// unusable) has spent a hash's CPU for nothing, and its exit waits for the hash's thread: a
// fraction of a second.
const adminPasswordHash =
  embedded && config.adminPassword !== null && !holdsDatabase(dataDir)
    ? hashBeforeLoading(config.adminPassword)
    : undefined

// DATA_DIR is claimed before the rest of the server loads (a separate chunk): a second process
// on the same folder is refused at once, not after the seconds a full start can take.
const dataDirLock: DataDirLock | undefined = embedded
  ? await import('./db/data-dir-lock')
      .then(({ claimDataDir }) => claimDataDir(dataDir))
      .catch(exitOnDataDirError)
  : undefined
const { buildApp } = await import('./app')
const app = await buildApp({
  ...config,
  distDir,
  prettyLogs: process.stdout.isTTY === true,
  dataDirLock,
  adminPasswordHash,
}).catch(exitOnDataDirError)

closeWithGrace({ delay: SHUTDOWN_LIMIT_MS, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'fatal error, shutting down')
  else app.log.info({ signal }, 'shutting down: finishing requests in flight')
  await app.close()
})

try {
  await app.listen({ port: config.port, host: config.host })
} catch (error) {
  app.log.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`)
  process.exit(1)
}
