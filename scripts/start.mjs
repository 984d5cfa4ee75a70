// @ts-check
/**
 * `npm start`: builds when dist/ is missing or older than the sources, then runs the compiled
 * server in this very process: plain `node`, exactly as the container runs it, so signals
 * (Ctrl-C, SIGTERM) reach the server's own graceful shutdown.
 *
 * Plain JavaScript on purpose: it must run before anything is compiled.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
/** Written last by a successful build (scripts/build/production.ts). */
const buildInfo = join(root, 'dist', 'build-info.json')
const SOURCES = [
  'client',
  'server',
  'common',
  'scripts/build',
  'scripts/build.ts',
  'scripts/paths.ts',
  'package.json',
  'package-lock.json',
]

/**
 * The newest modification time among the files under a path (a file or a folder).
 * @param {string} path
 */
function newestChange(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce(
      (newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs),
      0,
    )
}

function buildIsCurrent() {
  if (!existsSync(buildInfo)) return false
  const builtAt = statSync(buildInfo).mtimeMs
  return SOURCES.every((source) => newestChange(join(root, source)) <= builtAt)
}

if (!buildIsCurrent()) {
  console.log('painel: dist/ is missing or older than the sources; building first…')
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  })
  if (build.status !== 0) {
    console.error(
      'painel: the build failed; not starting. (Were the dev dependencies installed? Run `npm install`.)',
    )
    process.exit(build.status ?? 1)
  }
}

await import(pathToFileURL(join(root, 'dist', 'server', 'main.js')).href)
