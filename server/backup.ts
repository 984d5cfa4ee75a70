/**
 * Backups of the embedded database (DATA_DIR), from the same environment as the server:
 *
 *   npm run backup -- <file>            node dist/server/backup.js <file>
 *     a consistent copy while the server runs
 *   npm run backup -- --restore <file>  node dist/server/backup.js --restore <file>
 *     puts a backup in place; the server must be stopped (the DATA_DIR lock says so)
 *
 * Exit 0 done, 1 failed, 64 wrong usage, 78 DATA_DIR unusable or in use (restore).
 */
import { resolve } from 'node:path'
import { ConfigError, loadConfig } from './config/config'
import { backup, restore } from './db/backup'
import { DataDirError } from './db/data-dir-error'

function fail(message: string, code: number): never {
  process.stderr.write(`painel backup: ${message}\n`)
  process.exit(code)
}

const args = process.argv.slice(2)
const restoring = args[0] === '--restore'
const file = restoring ? args[1] : args[0]
if (!file || args.length !== (restoring ? 2 : 1)) {
  fail('usage: backup <file> | backup --restore <file>', 64)
}

try {
  const config = loadConfig(process.env)
  if (config.databaseUrl)
    fail('DATABASE_URL is set: back PostgreSQL up with its own tools (pg_dump)', 64)
  const dataDir = resolve(config.dataDir)
  if (restoring) {
    const { keptAs } = restore(dataDir, resolve(file))
    console.log(
      `restored ${resolve(file)} into DATA_DIR=${dataDir}` +
        (keptAs ? `; the database it replaced is kept as ${keptAs}` : ''),
    )
  } else {
    const { bytes } = backup(dataDir, resolve(file))
    console.log(`backed up DATA_DIR=${dataDir} to ${resolve(file)} (${bytes} bytes)`)
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirError) fail(error.message, 78)
  fail(error instanceof Error ? error.message : String(error), 1)
}
