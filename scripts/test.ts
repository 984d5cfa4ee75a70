/**
 * `npm test`: every check, in order, with a summary at the end. A step that fails does not hide
 * the others (each runs, so one run shows everything that is wrong), except that the browser
 * suites need a build that succeeded. Exits 0 only when every step passed.
 *
 * The server tests run on the embedded database (SQLite), and once more on PostgreSQL when
 * TEST_DATABASE_URL names a server where its user may create databases (.ci/run sets one up).
 */
import { spawn } from 'node:child_process'
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
  /**
   * Runs beside the step just before it (and that one's own), all at once, their output held and
   * printed as each ends. For steps that keep one core busy each (tsc, ESLint, Prettier): on two
   * cores they take about half their sum, not the sum.
   */
  besidePrevious?: boolean
}

/**
 * The browsers: every Playwright suite in Chromium; in Firefox the suites whose outcome depends on
 * the engine (e2e/support/engine-sensitive.ts: the `firefox` and `firefox-dark` projects), or
 * every suite with PAINEL_FIREFOX_FULL=1 (2.5 times Chromium's time here: past CI's budget,
 * docs/testing.md), and the smoke set (`firefox-smoke`), all in the one Playwright run; the
 * smoke set in WebKit after it (`npm run test:engines -- --only webkit`). `npm run test:engines`
 * alone runs the smoke set in both, with its own server: in `npm test` the Firefox half shares
 * the Playwright run's server and workers instead (the step took 86 s, its Firefox half 49 s
 * plus a server's start). A browser that is not here is one line of the summary, with the reason.
 */
const firefox = findFirefox()
const webkit = findWebKitDriver()
const firefoxFull = process.env.PAINEL_FIREFOX_FULL === '1'
const missing = [
  ...(firefox.found ? [] : [`firefox: ${firefox.reason}`]),
  ...(webkit.found ? [] : [`webkit: ${webkit.reason}`]),
]

const postgresUrl = process.env.TEST_DATABASE_URL
const withoutPostgres: NodeJS.ProcessEnv = { ...process.env }
delete withoutPostgres.TEST_DATABASE_URL

const STEPS: Step[] = [
  { name: 'typecheck', command: ['typecheck'] },
  // npm run lint in two halves, each beside the typecheck: the three keep the two cores busy for
  // about two minutes, where typecheck beside the whole of lint left one idle for more than one.
  { name: 'lint: ESLint', command: ['lint:eslint'], besidePrevious: true },
  { name: 'lint: format, imports, comments, API', command: ['lint:rest'], besidePrevious: true },
  { name: 'unit + server tests (SQLite)', command: ['test:unit'], env: withoutPostgres },
  {
    name: 'server tests (PostgreSQL)',
    // Only the files that use the test database (scripts/run-unit-tests.ts): the rest ran above.
    command: ['test:unit', '--', '--only', 'server', '--database-only'],
    ...(postgresUrl ? {} : { skipBecause: 'TEST_DATABASE_URL not set' }),
    // The fuzzing (server/openapi/contract-fuzz.test.ts, server/api-fuzz.test.ts) ran its full
    // count on SQLite just before; the engine changes little of what it checks, and on
    // PostgreSQL it doubled this step's time, so a quarter of it here.
    env: {
      ...process.env,
      CONTRACT_FUZZ_RUNS: process.env.CONTRACT_FUZZ_RUNS ?? '50',
      API_FUZZ_RUNS: process.env.API_FUZZ_RUNS ?? '250',
    },
  },
  { name: 'build', command: ['build'] },
  {
    name: firefox.found
      ? `Playwright: Chromium + Firefox (${firefoxFull ? 'all' : 'engine-sensitive'}, smoke set)`
      : 'Playwright: Chromium',
    command: [
      'test:e2e',
      '--',
      '--project=chromium',
      '--project=smoke',
      ...(firefox.found
        ? ['--project=firefox', '--project=firefox-smoke', '--project=firefox-dark']
        : []),
    ],
    needs: 'build',
  },
  {
    name: 'smoke set: webkit',
    command: ['test:engines', '--', '--only', 'webkit'],
    needs: 'build',
    ...(webkit.found ? {} : { skipBecause: 'no WebKit here' }),
  },
]

/**
 * A deadline for the whole run: CI gives up on a run at 90 minutes and prints only part of what
 * it said, with no summary (the run that timed out showed neither which step was slow nor what
 * had passed). PAINEL_TEST_DEADLINE is when to stop, in seconds since 1970 (.ci/run sets it to 85
 * minutes after it started); a step still running then is stopped, with all its processes, and
 * counted as failed, the steps after it are skipped, and the summary below is printed. Unset: no
 * deadline.
 */
const deadline = Number(process.env.PAINEL_TEST_DEADLINE ?? Number.POSITIVE_INFINITY) * 1000
if (Number.isNaN(deadline)) {
  console.error(`PAINEL_TEST_DEADLINE="${process.env.PAINEL_TEST_DEADLINE}" is not a number`)
  process.exit(1)
}

/**
 * Runs one step in a process group of its own; resolves with its exit code, or 'deadline'. With
 * `hold`, its output is kept and printed when it ends, in one piece.
 */
function runStep(step: Step, hold: boolean): Promise<number | 'deadline'> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...step.command], {
      cwd: root,
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: step.env ?? process.env,
      detached: true,
    })
    const held: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => held.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => held.push(chunk))
    let overtime = false
    const left = deadline - Date.now()
    const timer = Number.isFinite(left)
      ? setTimeout(
          () => {
            overtime = true
            console.error(`\n━━ ${step.name}: past the run's deadline, stopped ━━`)
            // The whole group: npm, its shell and what they started (servers, browsers).
            process.kill(-child.pid!, 'SIGTERM')
            setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000).unref()
          },
          Math.max(0, left),
        )
      : undefined
    child.on('close', (code) => {
      clearTimeout(timer)
      if (hold) {
        console.log(`\n━━ ${step.name} (npm run ${step.command.join(' ')}) ━━`)
        process.stdout.write(Buffer.concat(held))
      }
      resolve(overtime ? 'deadline' : (code ?? 1))
    })
  })
}

const results = new Map<string, string>()
const times = new Map<string, number>()

/** Runs a step, or skips it; records its result and time. */
async function run(step: Step, hold: boolean): Promise<void> {
  if (step.skipBecause || (step.needs && results.get(step.needs) !== 'passed')) {
    results.set(step.name, `skipped${step.skipBecause ? ` (${step.skipBecause})` : ''}`)
    return
  }
  if (Date.now() >= deadline) {
    results.set(step.name, "skipped (past the run's deadline)")
    return
  }
  if (!hold) console.log(`\n━━ ${step.name} (npm run ${step.command.join(' ')}) ━━`)
  const started = performance.now()
  const outcome = await runStep(step, hold)
  const time = performance.now() - started
  times.set(step.name, time)
  const result =
    outcome === 'deadline'
      ? "FAILED (past the run's deadline)"
      : outcome === 0
        ? 'passed'
        : 'FAILED'
  results.set(step.name, result)
  // Said as each step ends, so that a log cut short still tells how far the run got.
  console.log(`\n━━ ${step.name}: ${result} in ${(time / 1000).toFixed(1)} s ━━`)
}

/** The steps in order, each with those that run beside it. */
const groups: Step[][] = []
for (const step of STEPS) {
  if (step.besidePrevious && groups.length > 0) groups.at(-1)!.push(step)
  else groups.push([step])
}
for (const group of groups) {
  await Promise.all(group.map((step) => run(step, group.length > 1)))
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
const failed = [...results.values()].some((result) => result.startsWith('FAILED'))
process.exit(failed ? 1 : 0)
