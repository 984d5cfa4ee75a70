import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fp from 'fastify-plugin'

/**
 * One full garbage collection when a busy spell has passed, so that the server's memory comes
 * back down to what it holds idle.
 *
 * Under a burst of requests V8's heap grows with what the requests leave behind. When the burst
 * ends nothing more is allocated, so nothing starts a collection, and V8's own memory reducer
 * did not always run either: after `npm run bench -- --only overload` the heap stayed 16 MB
 * larger, with 18 MB more of it "in use" (garbage no collection had looked at), for the 90 s
 * the bench watched, in two runs of six; in the others it was given back after about 55 s.
 *
 * Every `checkEveryMs` the requests since the last check are counted: a check that finds at least
 * `busyRequests` marks the spell busy, and the first check after it that finds at most
 * `quietRequests` collects, once. A server with steady traffic never collects this way (V8's
 * allocation-driven collections keep its heap in check), and the collection runs when there is
 * next to nobody to wait for it.
 */
export interface HeapSettleOptions {
  checkEveryMs: number
  busyRequests: number
  quietRequests: number
  /** Runs `check` every checkEveryMs and returns how to stop (tests call it themselves). */
  every?: (check: () => void, ms: number) => () => void
  /** The full collection (tests count the calls instead). */
  collect?: () => void
}

export const DEFAULT_HEAP_SETTLE: HeapSettleOptions = {
  checkEveryMs: 10_000,
  // 20 requests a second for 10 s: a burst, not a panel in everyday use.
  busyRequests: 200,
  // A health check every few seconds and the odd request are quiet.
  quietRequests: 20,
}

/** Whether a busy spell has just ended; `busy` is whether one was going on before this check. */
export function settleAfter(
  busy: boolean,
  requests: number,
  options: Pick<HeapSettleOptions, 'busyRequests' | 'quietRequests'>,
): { busy: boolean; collect: boolean } {
  if (requests >= options.busyRequests) return { busy: true, collect: false }
  if (busy && requests <= options.quietRequests) return { busy: false, collect: true }
  return { busy, collect: false }
}

let exposedCollection: (() => void) | undefined

/**
 * V8's full collection. A running program has no such call without `--expose-gc` on Node's command
 * line; set at run time, the flag gives a context made after it a `gc` function (as Jest's leak
 * detector gets it), and is unset again so that nothing else sees one.
 */
export function fullCollection(): void {
  if (!exposedCollection) {
    setFlagsFromString('--expose-gc')
    exposedCollection = runInNewContext('gc') as () => void
    setFlagsFromString('--no-expose-gc')
  }
  exposedCollection()
}

const everyInterval = (check: () => void, ms: number) => {
  const timer = setInterval(check, ms).unref()
  return () => clearInterval(timer)
}

export default fp<HeapSettleOptions>(
  async (app, options) => {
    const { every = everyInterval, collect = fullCollection } = options
    let requests = 0
    let busy = false
    app.addHook('onRequest', async () => {
      requests += 1
    })
    const stop = every(() => {
      const next = settleAfter(busy, requests, options)
      requests = 0
      busy = next.busy
      if (next.collect) {
        const started = performance.now()
        collect()
        app.log.debug(
          { ms: Math.round(performance.now() - started) },
          'busy spell over: heap collected',
        )
      }
    }, options.checkEveryMs)
    app.addHook('onClose', async () => stop())
  },
  { name: 'heap-settle' },
)
