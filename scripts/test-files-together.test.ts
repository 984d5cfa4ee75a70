import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { after, describe, it } from 'node:test'
import { root } from './paths'
import { testProcesses } from './test-processes'
import { bundleTestFiles } from './unit-test-bundles'

/** Under the root: bundleTestFiles takes paths relative to it. */
await mkdir(join(root, '.cache'), { recursive: true })
const dir = await mkdtemp(join(root, '.cache', 'together-'))
after(() => rm(dir, { recursive: true, force: true }))

/** Two test files, compiled into one process, run by Node's runner: what it reported. */
async function runTogether(files: Record<string, string>): Promise<string> {
  const paths = await Promise.all(
    Object.entries(files).map(async ([name, source]) => {
      await writeFile(join(dir, name), source)
      return relative(root, join(dir, name))
    }),
  )
  const bundles = await bundleTestFiles([paths])
  try {
    assert.equal(bundles.entries.length, 1)
    // Without NODE_TEST_CONTEXT, which this file's own runner sets: with it, the inner runner
    // takes itself for a test file and runs none.
    const env = { ...process.env }
    delete env.NODE_TEST_CONTEXT
    const run = spawnSync(
      process.execPath,
      ['--test', '--test-reporter=spec', ...bundles.entries],
      {
        cwd: root,
        encoding: 'utf8',
        env,
      },
    )
    return run.stdout + run.stderr
  } finally {
    await bundles.remove()
  }
}

describe('test files sharing a process', () => {
  it('keep their top-level hooks their own, and are reported under their names', async () => {
    const report = await runTogether({
      'first.test.ts': [
        "import assert from 'node:assert/strict'",
        "import { beforeEach, it } from 'node:test'",
        'const seen = globalThis as { hooks?: number }',
        'beforeEach(() => { seen.hooks = (seen.hooks ?? 0) + 1 })',
        "it('first: its own hook ran once', () => assert.equal(seen.hooks, 1))",
      ].join('\n'),
      'second.test.ts': [
        "import assert from 'node:assert/strict'",
        "import { describe, it } from 'node:test'",
        'const seen = globalThis as { hooks?: number }',
        "describe('second', () => {",
        "  it('no other file’s hook ran before it', () => assert.equal(seen.hooks, 1))",
        '})',
      ].join('\n'),
    })
    assert.match(report, /ℹ pass 2\b/, report)
    assert.match(report, /ℹ fail 0\b/, report)
    for (const name of ['first.test.ts', 'second.test.ts']) {
      assert.match(report, new RegExp(`▶ \\.cache/together-[^/]+/${name.replace('.', '\\.')}`))
    }
  })

  it('fail on their own: a failing file leaves the other passing', async () => {
    const report = await runTogether({
      'broken.test.ts':
        "import { it } from 'node:test'\nit('fails', () => { throw new Error('no') })",
      'fine.test.ts': "import { it } from 'node:test'\nit('passes', () => {})",
    })
    assert.match(report, /ℹ pass 1\b/, report)
    assert.match(report, /ℹ fail 1\b/, report)
  })
})

describe('testProcesses', () => {
  it('gives the files named alone a process each, and the rest n at a time, in order', () => {
    const files = ['long', 'a', 'b', 'c', 'other', 'd', 'e']
    assert.deepEqual(testProcesses(files, new Set(['long', 'other']), 2), [
      ['long'],
      ['a', 'b'],
      ['other'],
      ['c', 'd'],
      ['e'],
    ])
    assert.deepEqual(
      testProcesses(files, new Set(), 1),
      files.map((file) => [file]),
    )
  })
})
