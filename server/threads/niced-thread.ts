/**
 * The first lines of a worker thread's script (CommonJS, evaluated) that lower the thread's own
 * scheduling priority by `nice`, so that it gets a core only when nothing at the default
 * priority wants one: the event loop, which answers /healthz and every request, always comes
 * first (hashing-threads.ts explains what happened without it). On Linux nice is per thread;
 * where a thread cannot find its own id (no /proc) it keeps the default.
 */
export function nicedThreadPrelude(nice: number): string {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new Error(`nice ${nice} not in 0–19`)
  return `
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
  require('node:os').setPriority(tid, ${nice})
} catch {
  // no /proc/thread-self (not Linux): this thread keeps the default priority
}
`
}
