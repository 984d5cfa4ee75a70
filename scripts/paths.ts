import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where things are, relative to the repository root (this file sits in scripts/). */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const clientDir = join(root, 'client')
export const clientSrc = join(clientDir, 'src')
export const distDir = join(root, 'dist')
export const assetsDir = join(distDir, 'assets')
export const serverOut = join(distDir, 'server', 'main.js')
export const metafilePath = join(distDir, 'metafile.json')
export const buildInfoPath = join(distDir, 'build-info.json')
/** The client's stylesheet before purging: never served, read by e2e/css-purge.spec.ts. */
export const unpurgedStylesheetPath = join(distDir, 'stylesheet-unpurged.css')
