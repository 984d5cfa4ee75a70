import { spawn, type ChildProcess } from 'node:child_process'
import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from 'esbuild'
import { serverOptions } from '../../scripts/build/esbuild-options'
import { freePortSync } from '../../scripts/free-port'
import { root } from '../../scripts/paths'
import type { FixtureDist } from './fixture-dist'

/**
 * The compiled server as a process, started the way the Dockerfile's CMD starts it
 * (`node dist/server/main.js`) over a fixture dist/: signals and exit codes are only real there.
 */
export async function compileServerInto(dist: FixtureDist): Promise<void> {
  await symlink(join(root, 'node_modules'), join(dist.base, 'node_modules'), 'dir')
  await writeFile(join(dist.base, 'package.json'), JSON.stringify({ type: 'module' }))
  await build({ ...serverOptions(), outdir: join(dist.distDir, 'server'), logLevel: 'silent' })
}

export interface ServerProcess {
  child: ChildProcess
  port: number
  output: () => string
  exited: Promise<number | null>
}

export function startServerProcess(dist: FixtureDist, env: Record<string, string>): ServerProcess {
  const port = freePortSync()
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: dist.base,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  return { child, port, output: () => output, exited }
}

/** Resolves once `path` answers 200; fails with the server's output if it exits or takes 60 s. */
export async function waitForAnswer(server: ServerProcess, path = '/readyz'): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`)
    try {
      if ((await fetch(`http://127.0.0.1:${server.port}${path}`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the server did not answer: ${server.output()}`)
}
