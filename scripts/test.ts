/**
 * `npm test`: every check, in order, with a summary at the end. A step that fails does not hide
 * the others (each runs, so one run shows everything that is wrong), except that the browser
 * suites need a build that succeeded. Exits 0 only when every step passed.
 *
 * The server tests run on the embedded database (SQLite), and once more on PostgreSQL when
 * TEST_DATABASE_URL names a server where its user may create databases (.ci/run sets one up).
 */
import { spawnSync } from 'node:child_process'
import { formatTable } from './build/report'
import { findFirefox, findWebKitDriver } from './find-browser'
import { root } from './paths'

interface Step {
  name: string
  /** npm script and its arguments. */
  command: string[]
  /** Skipped when this earlier step failed. */
  needs?: string
  /** Skipped, with this reason, when set. */
  skipBecause?: string
  env?: NodeJS.ProcessEnv
}

/**
 * The browsers: every Playwright suite in Chromium; in Firefox the suites whose outcome depends on
 * the engine (e2e/support/engine-sensitive.ts: the `firefox` and `firefox-dark` projects), or
 * every suite with PAINEL_FIREFOX_FULL=1 (2.5 times Chromium's time here: past CI's budget,
 * docs/testing.md); the smoke set in Firefox and in WebKit (`npm run test:engines`). A browser
 * that is not here is one line of the summary, with the reason.
 */
const firefox = findFirefox()
const webkit = findWebKitDriver()
const firefoxFull = process.env.PAINEL_FIREFOX_FULL === '1'
const missing = [
  ...(firefox.found ? [] : [`firefox: ${firefox.reason}`]),
  ...(webkit.found ? [] : [`webkit: ${webkit.reason}`]),
]
const engines = [...(firefox.found ? ['firefox'] : []), ...(webkit.found ? ['webkit'] : [])]

const postgresUrl = process.env.TEST_DATABASE_URL
const withoutPostgres: NodeJS.ProcessEnv = { ...process.env }
delete withoutPostgres.TEST_DATABASE_URL

const STEPS: Step[] = [
  { name: 'typecheck', command: ['typecheck'] },
  { name: 'lint + format', command: ['lint'] },
  { name: 'unit + server tests (SQLite)', command: ['test:unit'], env: withoutPostgres },
  {
    name: 'server tests (PostgreSQL)',
    // Only the files that use the test database (scripts/run-unit-tests.ts): the rest ran above.
    command: ['test:unit', '--', '--only', 'server', '--database-only'],
    ...(postgresUrl ? {} : { skipBecause: 'TEST_DATABASE_URL not set' }),
    // The contract fuzzing (server/openapi/contract-fuzz.test.ts) ran its 200 requests per
    // operation on SQLite just before; the engine changes little of what it checks, and on
    // PostgreSQL it doubled this step's time, so a quarter of them here.
    env: { ...process.env, CONTRACT_FUZZ_RUNS: process.env.CONTRACT_FUZZ_RUNS ?? '50' },
  },
  { name: 'build', command: ['build'] },
  {
    name: firefox.found
      ? `Playwright: Chromium + Firefox (${firefoxFull ? 'all' : 'engine-sensitive'})`
      : 'Playwright: Chromium',
    command: [
      'test:e2e',
      '--',
      '--project=chromium',
      '--project=smoke',
      ...(firefox.found ? ['--project=firefox', '--project=firefox-dark'] : []),
    ],
    needs: 'build',
  },
  {
    name: `smoke set: ${engines.length > 0 ? engines.join(' + ') : 'Firefox, WebKit'}`,
    command: ['test:engines', ...(engines.length === 1 ? ['--', '--only', engines[0]!] : [])],
    needs: 'build',
    ...(engines.length === 0 ? { skipBecause: 'neither browser is here' } : {}),
  },
]

const results = new Map<string, string>()
const times = new Map<string, number>()

for (const step of STEPS) {
  if (step.skipBecause || (step.needs && results.get(step.needs) !== 'passed')) {
    results.set(step.name, `skipped${step.skipBecause ? ` (${step.skipBecause})` : ''}`)
    continue
  }
  console.log(`\n━━ ${step.name} (npm run ${step.command.join(' ')}) ━━`)
  const started = performance.now()
  const run = spawnSync('npm', ['run', '--silent', ...step.command], {
    cwd: root,
    stdio: 'inherit',
    env: step.env ?? process.env,
  })
  times.set(step.name, performance.now() - started)
  results.set(step.name, run.status === 0 ? 'passed' : 'FAILED')
}

console.log(
  `\n${formatTable(
    ['step', 'result', 'time'],
    STEPS.map((step) => {
      const time = times.get(step.name)
      return [
        step.name,
        results.get(step.name) ?? '',
        time === undefined ? '' : `${(time / 1000).toFixed(1)} s`,
      ]
    }),
  )}`,
)
// Named once, not as hundreds of skipped tests (.ci/run installs both).
for (const line of missing) console.log(`not run: ${line}`)
// A step skipped for a failed one is covered by that failure.
const failed = [...results.values()].includes('FAILED')
process.exit(failed ? 1 : 0)
