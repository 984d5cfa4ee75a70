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
  const linters = [
    ['redocly', 'lint', '--config', join(root, 'redocly.yaml'), '--max-problems', '1000'],
    ['spectral', 'lint', '--ruleset', join(root, '.spectral.yaml'), '--fail-severity', 'hint'],
  ]
  let failed = false
  for (const [tool = '', ...args] of linters) {
    const run = spawnSync(join(root, 'node_modules', '.bin', tool), [...args, documentPath], {
      cwd: root,
      env,
      encoding: 'utf8',
    })
    const output = `${run.stdout}${run.stderr}`
    // Redocly exits 0 with warnings: a warning fails here too.
    const warned = tool === 'redocly' && /\bwarnings?\b/.test(output.replace(/0 warnings?/g, ''))
    if (run.status !== 0 || warned) {
      failed = true
      console.error(`${tool} found problems in GET /api/openapi.json:\n${output}`)
    }
  }
  if (failed) process.exitCode = 1
  else console.log('API description: Redocly and Spectral, no errors, no warnings')
} finally {
  rmSync(folder, { recursive: true, force: true })
}
