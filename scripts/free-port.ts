import { execFileSync } from 'node:child_process'

/**
 * A TCP port nobody listens on right now, found synchronously (Playwright's config is not async):
 * a child Node process binds port 0 on loopback and prints what it got.
 */
export function freePortSync(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))
}
