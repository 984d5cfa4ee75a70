/**
 * `npm run test:unit`: every *.test.ts under client/src, server and scripts, in Node's test
 * runner (Node 20 cannot glob test files itself). `--only server` narrows it to one folder.
 * Tests that need a database use the embedded SQLite, or the PostgreSQL server of TEST_DATABASE_URL.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { root } from './paths'

const ALL_FOLDERS = ['common', 'client/src', 'server', 'scripts']
const args = process.argv.slice(2)
const onlyAt = args.indexOf('--only')
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : undefined
const folders = only ? ALL_FOLDERS.filter((folder) => folder === only) : ALL_FOLDERS

const files = folders
  .flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name))),
  )
  .sort()

if (files.length === 0) {
  console.error('no unit test files found')
  process.exit(1)
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...args, ...files],
  { cwd: root, stdio: 'inherit' },
)
process.exit(result.status ?? 1)
