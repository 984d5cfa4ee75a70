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

const postgresUrl = process.env.TEST_DATABASE_URL
const withoutPostgres: NodeJS.ProcessEnv = { ...process.env }
delete withoutPostgres.TEST_DATABASE_URL

const STEPS: Step[] = [
  { name: 'typecheck', command: ['typecheck'] },
  { name: 'lint + format', command: ['lint'] },
  { name: 'unit + server tests (SQLite)', command: ['test:unit'], env: withoutPostgres },
  {
    name: 'server tests (PostgreSQL)',
    command: ['test:unit', '--', '--only', 'server'],
    ...(postgresUrl ? {} : { skipBecause: 'TEST_DATABASE_URL not set' }),
    // The contract fuzzing (server/openapi/contract-fuzz.test.ts) ran its 200 requests per
    // operation on SQLite just before; the engine changes little of what it checks, and on
    // PostgreSQL it doubled this step's time, so a quarter of them here.
    env: { ...process.env, CONTRACT_FUZZ_RUNS: process.env.CONTRACT_FUZZ_RUNS ?? '50' },
  },
  { name: 'build', command: ['build'] },
  { name: 'Playwright suites', command: ['test:e2e'], needs: 'build' },
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
// A step skipped for a failed one is covered by that failure.
const failed = [...results.values()].includes('FAILED')
process.exit(failed ? 1 : 0)
