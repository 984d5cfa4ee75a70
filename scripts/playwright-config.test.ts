import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, it } from 'node:test'
import { ENGINE_SENSITIVE_SPECS } from '../e2e/support/engine-sensitive'
import { root } from './paths'

/**
 * The run's folders, named here: left to the config, each listing made two temporary folders
 * that only a run's global teardown removes (e2e/support/test-env.ts), and a listing has none.
 */
const runFolders = mkdtempSync(join(tmpdir(), 'painel-config-test-'))
after(() => rmSync(runFolders, { recursive: true, force: true }))
const ownFolders = {
  PAINEL_E2E_DATA_DIR: join(runFolders, 'data'),
  PAINEL_E2E_MAIL_DIR: join(runFolders, 'mail'),
}

/** The projects playwright.config.ts gives, as `playwright test --list` prints them. */
function listedProjects(env: NodeJS.ProcessEnv): Set<string> {
  const run = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '--list'],
    {
      cwd: root,
      env: { ...process.env, ...ownFolders, ...env },
      encoding: 'utf8',
    },
  )
  assert.equal(run.status, 0, run.stderr)
  return new Set([...run.stdout.matchAll(/^\s*\[([\w-]+)\] ›/gm)].map((match) => match[1] ?? ''))
}

it('runs only the read-only smoke project against a deployed panel (E2E_BASE_URL)', () => {
  // The other suites create accounts and read a mailbox that only a panel of their own sends to.
  assert.deepEqual(listedProjects({ E2E_BASE_URL: 'http://127.0.0.1:9' }), new Set(['smoke']))
})

it('runs every project against the server it starts itself', () => {
  const projects = listedProjects({ E2E_BASE_URL: '' })
  assert.ok(projects.has('chromium') && projects.has('smoke'), [...projects].join(', '))
})

it('defines the Firefox projects only where there is a Firefox, named once rather than skipped', () => {
  const without = listedProjects({ E2E_BASE_URL: '', FIREFOX_PATH: '/nonexistent/firefox' })
  assert.ok(![...without].some((name) => name.startsWith('firefox')), [...without].join(', '))
  const withOne = listedProjects({ E2E_BASE_URL: '', FIREFOX_PATH: process.execPath })
  for (const name of ['firefox', 'firefox-smoke', 'firefox-dark']) {
    assert.ok(withOne.has(name), `${name} in ${[...withOne].join(', ')}`)
  }
})

it('runs the engine-sensitive suites in Firefox (less the tests the server decides), and every suite with PAINEL_FIREFOX_FULL=1', () => {
  const filesOf = (env: NodeJS.ProcessEnv) => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/@playwright/test/cli.js', 'test', '--list', '--project=firefox'],
      {
        cwd: root,
        env: { ...process.env, ...ownFolders, FIREFOX_PATH: process.execPath, ...env },
        encoding: 'utf8',
      },
    )
    assert.equal(run.status, 0, run.stderr)
    return {
      files: new Set([...run.stdout.matchAll(/› ([\w/-]+)\.spec\.ts:/g)].map((match) => match[1])),
      listing: run.stdout,
    }
  }
  // A single-sign-on.spec.ts test tagged SERVER_DECIDES (e2e/support/engine-sensitive.ts).
  const serverDecides = 'Equipe shows how a person signs in: password and provider'
  const some = filesOf({ E2E_BASE_URL: '', PAINEL_FIREFOX_FULL: '' })
  assert.deepEqual([...some.files].sort(), [...ENGINE_SENSITIVE_SPECS].sort())
  assert.ok(!some.listing.includes(serverDecides), 'a test the server decides is left to Chromium')
  const all = filesOf({ E2E_BASE_URL: '', PAINEL_FIREFOX_FULL: '1' })
  assert.ok(all.files.has('staff-admin') && all.files.has('audit-words'), [...all.files].join(', '))
  for (const name of ENGINE_SENSITIVE_SPECS) assert.ok(all.files.has(name), name)
  assert.ok(all.listing.includes(serverDecides), 'and runs in Firefox with PAINEL_FIREFOX_FULL=1')
})
