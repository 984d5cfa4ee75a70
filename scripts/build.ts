/** `npm run build`: the production build into dist/ (see scripts/build/production.ts). */
import { buildProduction } from './build/production'

try {
  await buildProduction()
} catch (error) {
  console.error(`\nBUILD FAILED: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
