/**
 * The yardstick of the prerendered sign-in page: the same build without it
 * (`npm run build -- --no-prerender`: an empty #root, everything else the same), as a snapshot
 * of its own. dist/ is rebuilt as usual afterwards, so it is left as a normal build.
 */
import { oneBuild } from './build-time'
import { snapshotDist, type BuildUnderTest } from './dist-snapshot'

export async function snapshotWithoutPrerender(
  log: (line: string) => void,
): Promise<BuildUnderTest> {
  log('  building without prerendering (npm run build -- --no-prerender) for comparison')
  await oneBuild(['--no-prerender'])
  try {
    return await snapshotDist()
  } finally {
    log('  building dist/ again, with prerendering')
    await oneBuild()
  }
}
