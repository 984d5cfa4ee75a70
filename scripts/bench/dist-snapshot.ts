/**
 * The build the benchmarks measure: a copy of dist/ in a temporary folder. dist/ can be rebuilt
 * while a benchmark runs (`npm run dev`, a test run, another terminal), which would swap the
 * hashed files under a running load test; a snapshot keeps every section on one build, and
 * Painel and nginx on the very same files.
 */
import { chmod, copyFile, cp, readFile, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { buildInfoPath, distDir, root } from '../paths'
import { makeTempDir, removeTempDir } from './cleanup'

export interface BuildUnderTest {
  /** Stands in for the repository root: dist/, package.json, node_modules (a link). */
  root: string
  distDir: string
  serverOut: string
  metafilePath: string
  /** From the build's report (buildInfoPath in scripts/paths.ts). */
  builtAt: string
  remove: () => void
}

async function buildInfo(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return null
  }
}

const ATTEMPTS = 3

export async function snapshotDist(): Promise<BuildUnderTest> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const before = await buildInfo(buildInfoPath)
    if (before === null) {
      throw new Error(
        'dist/ holds no complete build: run npm run build first (or the build section)',
      )
    }
    const snapshotRoot = makeTempDir('painel-bench-build-')
    // mkdtemp makes it private; nginx's worker (`nobody` when started as root) must read it.
    await chmod(snapshotRoot, 0o755)
    const copy = join(snapshotRoot, 'dist')
    await cp(distDir, copy, { recursive: true })
    // A build that ran during the copy would have left a mix of two builds: then copy again.
    const after = await buildInfo(buildInfoPath)
    const copied = await buildInfo(join(copy, 'build-info.json'))
    if (before === after && before === copied) {
      // The compiled server is ESM (package.json's "type") and imports its packages at run time.
      await copyFile(join(root, 'package.json'), join(snapshotRoot, 'package.json'))
      await symlink(join(root, 'node_modules'), join(snapshotRoot, 'node_modules'), 'dir')
      return {
        root: snapshotRoot,
        distDir: copy,
        serverOut: join(copy, 'server', 'main.js'),
        metafilePath: join(copy, 'metafile.json'),
        builtAt: (JSON.parse(before) as { builtAt?: string }).builtAt ?? 'unknown',
        remove: () => removeTempDir(snapshotRoot),
      }
    }
    removeTempDir(snapshotRoot)
  }
  throw new Error(
    `dist/ kept changing while it was copied (${ATTEMPTS} attempts): is a build running?`,
  )
}
