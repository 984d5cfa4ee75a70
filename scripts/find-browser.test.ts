import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { it } from 'node:test'
import { findBrowser } from './find-browser'

const SHELL = '/usr/bin/chromium-headless-shell'
const noShell = existsSync(SHELL) ? false : `${SHELL} is not installed`

it(
  'runs the suites in the headless-only Chromium, and the benchmarks in the full one',
  { skip: noShell },
  () => {
    const env = { CHROMIUM_PATH: '' }
    const suites = findBrowser(env, { headless: true })
    const benchmarks = findBrowser(env)
    // Playwright's own Chromium, where installed, picks its own headless shell itself.
    if (suites.executablePath === undefined) return
    assert.equal(suites.executablePath, SHELL)
    assert.notEqual(benchmarks.executablePath, SHELL)
    assert.ok(suites.args.includes('--no-sandbox'), 'the system build needs the same flags here')
  },
)

it('keeps CHROMIUM_PATH first, headless or not', () => {
  const env = { CHROMIUM_PATH: process.execPath }
  assert.equal(findBrowser(env, { headless: true }).executablePath, process.execPath)
  assert.equal(findBrowser(env).executablePath, process.execPath)
})
