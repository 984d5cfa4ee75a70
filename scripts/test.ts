/**
 * `npm test`: every check, in order, with a summary at the end. A step that fails does not hide
 * the others (each runs, so one run shows everything that is wrong), except that the browser
 * suites need a build that succeeded. Exits 0 only when every step passed.
 */
import { spawnSync } from 'node:child_process'
import { formatTable } from './build/report'
import { root } from './paths'

interface Step {
  name: string
  script: string
  /** Skipped when this earlier step failed. */
  needs?: string
}

const STEPS: Step[] = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint + format', script: 'lint' },
  { name: 'unit + server tests', script: 'test:unit' },
  { name: 'build', script: 'build' },
  { name: 'Playwright suites', script: 'test:e2e', needs: 'build' },
]

const results = new Map<string, 'passed' | 'FAILED' | 'skipped'>()
const times = new Map<string, number>()

for (const step of STEPS) {
  if (step.needs && results.get(step.needs) !== 'passed') {
    results.set(step.name, 'skipped')
    continue
  }
  console.log(`\n━━ ${step.name} (npm run ${step.script}) ━━`)
  const started = performance.now()
  const run = spawnSync('npm', ['run', '--silent', step.script], { cwd: root, stdio: 'inherit' })
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
const failed = [...results.values()].some((result) => result !== 'passed')
process.exit(failed ? 1 : 0)
