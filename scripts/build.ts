/**
 * `npm run build`: the production build into dist/ (see scripts/build/production.ts).
 * `npm run build -- --no-prerender`: the same without the sign-in page in index.html.
 */
import { parseArgs } from 'node:util'
import { buildProduction } from './build/production'

try {
  const { values } = parseArgs({ options: { 'no-prerender': { type: 'boolean' } }, strict: true })
  await buildProduction({ prerender: !values['no-prerender'] })
} catch (error) {
  console.error(`\nBUILD FAILED: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
