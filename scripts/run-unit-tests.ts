/**
 * `npm run test:unit`: every *.test.ts under client/src, server and scripts, in Node's test
 * runner (Node 20 cannot glob test files itself), compiled first (scripts/unit-test-bundles.ts).
 * `--only server` narrows it to one folder.
 * Tests that need a database use the embedded SQLite, or the PostgreSQL server of TEST_DATABASE_URL.
 * `--database-only` keeps the files that can use that server: those whose imports reach
 * server/test/test-database.ts, the one module that reads TEST_DATABASE_URL. The others (a config
 * parser, a spawned server on its own SQLite file) would only run the same test a second time.
 */
import { spawnSync } from 'node:child_process'
import { build } from 'esbuild'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { migratedTestTemplate } from '../server/test/test-database'
import { root } from './paths'
import { testProcesses } from './test-processes'
import { bundleTestFiles } from './unit-test-bundles'

const ALL_FOLDERS = ['common', 'client/src', 'server', 'scripts']
const args = process.argv.slice(2)
const onlyAt = args.indexOf('--only')
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : undefined
const databaseOnlyAt = args.indexOf('--database-only')
const databaseOnly = databaseOnlyAt >= 0 && args.splice(databaseOnlyAt, 1).length > 0
const TEST_DATABASE = 'server/test/test-database.ts'
const folders = only ? ALL_FOLDERS.filter((folder) => folder === only) : ALL_FOLDERS

const allFiles = folders
  .flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name))),
  )
  .sort()

/** The test files whose static imports reach TEST_DATABASE (esbuild follows them, writes nothing). */
async function filesUsingTheTestDatabase(candidates: string[]): Promise<string[]> {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: candidates,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: 'unused',
    logLevel: 'silent',
  })
  const reaching = new Set(
    Object.values(metafile.outputs)
      .filter((output) => output.entryPoint && TEST_DATABASE in output.inputs)
      .map((output) => output.entryPoint),
  )
  return candidates.filter((file) => reaching.has(file))
}

/**
 * Files that use the test database but whose outcome the engine does not decide: the PostgreSQL
 * pass leaves them out, with the reason. The time of a sign-in's answer with and without an
 * account is the password hashing's (one query either way); on PostgreSQL, under CI's load, the
 * file took 106 s for what the SQLite pass had just shown in 19 s.
 */
const SAME_ON_EVERY_ENGINE: Record<string, string> = {
  'server/features/sign-in/answer-timing.test.ts': 'the hashing decides the time, not the engine',
}

const files = databaseOnly
  ? (await filesUsingTheTestDatabase(allFiles)).filter((file) => !(file in SAME_ON_EVERY_ENGINE))
  : allFiles
if (databaseOnly) {
  console.log(`${files.length} of ${allFiles.length} test files use the test database`)
  for (const [file, reason] of Object.entries(SAME_ON_EVERY_ENGINE)) {
    console.log(`left out: ${file} (${reason})`)
  }
}

/**
 * The files that take tens of seconds (real processes, real waits: the seconds are from CI's log
 * at ed9d14c), started first and longest first. Started in alphabetical turn, one of them could
 * begin near the end and run alone while the other places stood idle: the PostgreSQL pass ended
 * with server/mail/mail-outage.test.ts (58–90 s) running by itself. Only the order changes; a
 * file not listed runs after them, in alphabetical order.
 */
const LONGEST_FIRST = [
  'server/mail/mail-outage.test.ts', // PostgreSQL 58 s (SQLite 17 s)
  'server/db/first-start-backup.test.ts', // 52 s
  'server/db/durability.test.ts', // 41 s
  'scripts/playwright-config.test.ts', // 31 s
  'server/openapi/contract-fuzz.test.ts', // 31 s (PostgreSQL 18 s, at a quarter)
  'server/features/sign-in/answer-timing.test.ts', // 23 s
  'server/features/sign-in/sign-in-limits-api.test.ts', // PostgreSQL 12 s
  'server/db/backup.test.ts', // 12 s
  'server/db/unusable-data-dir.test.ts', // 12 s
  'server/db/pglite-import.test.ts', // 11 s
  'server/access/session-first.test.ts', // PostgreSQL 10 s
  'server/api-fuzz.test.ts', // 9 s
]
const turn = (file: string) => {
  const index = LONGEST_FIRST.indexOf(file)
  return index < 0 ? LONGEST_FIRST.length : index
}
// Stable: the rest keep their alphabetical order.
files.sort((a, b) => turn(a) - turn(b))

if (files.length === 0) {
  console.error('no unit test files found')
  process.exit(1)
}

/**
 * Test processes at once (TEST_CONCURRENCY, default 2). Node's own default is one less than the
 * cores: one here, which left a core idle while a file waited on its server,
 * its child processes or its database. The tests share nothing that two files could both take
 * (free ports, a scratch database or a temporary folder each), and none times the machine.
 */
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2)
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`TEST_CONCURRENCY="${process.env.TEST_CONCURRENCY}" is not a whole number ≥ 1`)
  process.exit(1)
}

/**
 * Files that share a process (scripts/test-processes.ts), TEST_FILES_PER_PROCESS at a time
 * (default 6; 1 gives each file a process of its own, to rule sharing out when a test fails).
 * The long files keep a process each, and so does one that changes the process for every file
 * in it: full-disk-writes.test.ts takes the process's unhandled rejections as its own.
 */
const perProcess = Number(process.env.TEST_FILES_PER_PROCESS ?? 6)
if (!Number.isInteger(perProcess) || perProcess < 1) {
  console.error(
    `TEST_FILES_PER_PROCESS="${process.env.TEST_FILES_PER_PROCESS}" is not a whole number ≥ 1`,
  )
  process.exit(1)
}
const ALONE = new Set([...LONGEST_FIRST, 'server/db/full-disk-writes.test.ts'])
const processes = testProcesses(files, ALONE, perProcess)

/**
 * A test file still running after this long has hung, and fails with its name: Node 20's
 * --test-timeout times each file as a whole, and ends its process. Without it a hung file held
 * the PostgreSQL pass until the CI run's deadline, 77 minutes, and the summary named no file. The
 * longest file, server/mail/mail-outage.test.ts, took 87 s in a CI run, and has a process to itself;
 * a process of several files takes tens of seconds. Ten minutes leaves a loaded CI machine room,
 * and is not a measure of speed.
 */
const FILE_TIMEOUT_MS = 10 * 60_000

const bundles = await bundleTestFiles(processes)
// On PostgreSQL, the migrations run once for the run, not once for each test database.
const postgresUrl = process.env.TEST_DATABASE_URL
const template = postgresUrl ? await migratedTestTemplate(postgresUrl) : undefined
const result = spawnSync(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${FILE_TIMEOUT_MS}`,
    '--test-reporter=spec',
    ...args,
    ...bundles.entries,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...template?.env } },
)
await bundles.remove()
await template?.drop()
process.exit(result.status ?? 1)
