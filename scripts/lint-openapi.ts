/**
 * `npm run lint`'s check of the API description: the document the server serves at
 * GET /api/openapi.json, linted by the field's two linters, Redocly CLI (its recommended rules,
 * redocly.yaml) and Spectral (spectral:oas, .spectral.yaml). Both must report nothing: no error,
 * no warning. The document is taken from a real app (the test fixture's, on a temporary embedded
 * database), not from a file that could drift from the routes.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiFixture } from '../server/test/api-fixture'
import { root } from './paths'

const folder = mkdtempSync(join(tmpdir(), 'painel-openapi-'))
const documentPath = join(folder, 'openapi.json')
try {
  const api = await apiFixture()
  try {
    const response = await api.get('/api/openapi.json')
    if (response.statusCode !== 200)
      throw new Error(`GET /api/openapi.json: ${response.statusCode}`)
    writeFileSync(documentPath, response.body)
  } finally {
    await api.close()
  }

  // Neither tool may phone home or print upgrade notices into the lint's output.
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    SCARF_ANALYTICS: 'false',
  }
  const run = (tool: string, args: string[]) =>
    spawnSync(join(root, 'node_modules', '.bin', tool), [...args, documentPath], {
      cwd: root,
      env,
      encoding: 'utf8',
    })
  let failed = false

  // Redocly exits 0 with warnings; its JSON report counts both.
  const redocly = run('redocly', [
    'lint',
    '--config',
    join(root, 'redocly.yaml'),
    '--format',
    'json',
  ])
  const report = JSON.parse(redocly.stdout) as {
    totals: { errors: number; warnings: number }
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[]
  }
  if (report.totals.errors + report.totals.warnings > 0) {
    failed = true
    console.error('Redocly found problems in GET /api/openapi.json:')
    for (const problem of report.problems)
      console.error(`  ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer})`)
  }

  const spectral = run('spectral', [
    'lint',
    '--ruleset',
    join(root, '.spectral.yaml'),
    '--fail-severity',
    'hint',
  ])
  if (spectral.status !== 0) {
    failed = true
    console.error(
      `Spectral found problems in GET /api/openapi.json:${spectral.stdout}${spectral.stderr}`,
    )
  }
  if (failed) process.exitCode = 1
  else console.log('API description: Redocly and Spectral, no errors, no warnings')
} finally {
  rmSync(folder, { recursive: true, force: true })
}
