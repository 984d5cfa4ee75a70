/**
 * `npm run test:engines`: the smoke set (e2e/smoke/journeys.ts: public pages, the guard, the
 * theme parameter, colour modes, signing in and out, an approval) in the two engines besides
 * Chromium:
 * - Firefox: Playwright over WebDriver BiDi with the system's Firefox, projects firefox-smoke
 *   and firefox-dark (playwright.config.ts);
 * - WebKit: WebKitGTK through WebKitWebDriver (e2e/webdriver/smoke.ts).
 * Ends with exactly one line per engine, `firefox: N passed, N failed` then
 * `webkit: N passed, N failed` (a fixed contract: checks read them). An engine that cannot run
 * here counts as 0 passed, 1 failed, with the reason on the line before. Exit 0 only when
 * nothing failed.
 *
 * `--only firefox` or `--only webkit` runs one of them.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findFirefox } from './find-browser'
import { root } from './paths'

export interface Count {
  passed: number
  failed: number
  skipped: number
  /** Why the engine did not run, when it did not. */
  cannotRun?: string
}

/** The Firefox projects and the files of the smoke set (playwright.config.ts). */
export const FIREFOX_SMOKE_ARGS = [
  '--project=firefox-smoke',
  '--project=firefox-dark',
  'e2e/smoke/',
]

export function firefoxSmoke(extraArgs: string[] = []): Count {
  const firefox = findFirefox()
  if (!firefox.found) return { passed: 0, failed: 1, skipped: 0, cannotRun: firefox.reason }
  const folder = mkdtempSync(join(tmpdir(), 'painel-engines-'))
  const report = join(folder, 'firefox.json')
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/@playwright/test/cli.js',
      'test',
      ...FIREFOX_SMOKE_ARGS,
      '--reporter=list,json',
      ...extraArgs,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report } },
  )
  try {
    const { stats } = JSON.parse(readFileSync(report, 'utf8')) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number }
    }
    return {
      passed: stats.expected + stats.flaky,
      failed: stats.unexpected,
      skipped: stats.skipped,
    }
  } catch {
    return {
      passed: 0,
      failed: 1,
      skipped: 0,
      cannotRun: `Playwright ended (exit ${run.status}) without a report`,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The WebDriver run's own closing line is read, not echoed: the summary prints it once. */
export function webkitSmoke(): Count {
  const run = spawnSync(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'e2e/webdriver/smoke.ts'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const lines = run.stdout.trimEnd().split('\n')
  const last = lines.at(-1) ?? ''
  const counted = /^webkit: (\d+) passed, (\d+) failed$/.exec(last)
  if (counted) lines.pop()
  if (lines.length > 0) console.log(lines.join('\n'))
  const cannotRun = /^webkit: cannot run: (.*)$/m.exec(run.stdout)?.[1]
  const skipped = Number(/^webkit: (\d+) skipped/m.exec(run.stdout)?.[1] ?? 0)
  if (!counted) {
    return { passed: 0, failed: 1, skipped, cannotRun: cannotRun ?? `exit ${run.status}` }
  }
  return { passed: Number(counted[1]), failed: Number(counted[2]), skipped, cannotRun }
}

export function countLine(engine: string, count: Count): string {
  return `${engine}: ${count.passed} passed, ${count.failed} failed`
}

if (process.argv[1]?.endsWith('test-engines.ts')) {
  const only = process.argv.includes('--only')
    ? process.argv[process.argv.indexOf('--only') + 1]
    : undefined
  const results: [string, Count][] = []
  if (!only || only === 'firefox') {
    console.log('\n━━ Firefox: the smoke set (Playwright over WebDriver BiDi) ━━')
    results.push(['firefox', firefoxSmoke()])
  }
  if (!only || only === 'webkit') {
    console.log('\n━━ WebKit: the smoke set (WebKitGTK through WebKitWebDriver) ━━')
    results.push(['webkit', webkitSmoke()])
  }
  console.log('')
  for (const [engine, count] of results) {
    if (count.cannotRun) console.log(`${engine} could not run: ${count.cannotRun}`)
    if (count.skipped > 0) console.log(`${engine}: ${count.skipped} skipped (reasons above)`)
  }
  for (const [engine, count] of results) console.log(countLine(engine, count))
  process.exit(results.some(([, count]) => count.failed > 0) ? 1 : 0)
}
