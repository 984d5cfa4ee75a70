import { probeEvery } from './http-probe'

/**
 * `/healthz` of the URL given (as JSON), every 20 ms, in a process of its own, until its stdin
 * closes: a line `probing` on stdout once the first answer is in, then, last, the answers' times
 * and how many were not 200, as JSON (generator-process.ts starts it). The scale bench's own
 * process reads the 300 MB export it measures, and a probe there timed that process's waits too
 * (scale.ts, startHealthProbe).
 */
const url = JSON.parse(process.argv[2] ?? 'null') as unknown
if (typeof url !== 'string') throw new Error('usage: health-probe-process.ts <"url of /healthz">')
const times: number[] = []
let notOk = 0
const stdinClosed = new Promise<void>((resolve) => {
  process.stdin.once('end', resolve)
  process.stdin.once('close', resolve)
  process.stdin.resume()
})
await probeEvery(url, { intervalMs: 20, timeoutMs: 60_000 }, stdinClosed, (answer) => {
  if (times.length === 0) process.stdout.write('probing\n')
  times.push(answer.ms)
  if (answer.status !== '200') notOk += 1
})
process.stdout.write(`${JSON.stringify({ times, notOk })}\n`)
