/**
 * The container's HEALTHCHECK (see the Dockerfile): `node dist/server/healthcheck.js` asks the
 * server in the same container whether it serves requests. Exit 0 = healthy, 1 = not.
 *
 * Plain Node with the global fetch, so the image needs no curl or wget; and no Fastify or config
 * module, so it starts in tens of milliseconds and cannot fail for a reason the server would not.
 * It reads PORT as the server does (blank = unset = 8080) but refuses 0: a random port cannot
 * be probed.
 */
import { HEALTH_PATH } from './health-path'

const DEFAULT_PORT = 8080
/** Below the Dockerfile's --timeout, so a hung server is reported here, with a message. */
const TIMEOUT_MS = 3000

function fail(message: string): never {
  process.stderr.write(`healthcheck: ${message}\n`)
  process.exit(1)
}

function portFrom(value: string | undefined): number {
  const text = value?.trim() ?? ''
  if (text === '') return DEFAULT_PORT
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN
  if (!(port >= 1 && port <= 65535)) {
    fail(`PORT=${JSON.stringify(text.slice(0, 20))} is not a port from 1 to 65535`)
  }
  return port
}

function reason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${TIMEOUT_MS / 1000} s`
  }
  // fetch wraps the interesting part (ECONNREFUSED, ...) in its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  return cause instanceof Error ? cause.message : String(cause)
}

async function main(): Promise<void> {
  const url = `http://127.0.0.1:${portFrom(process.env.PORT)}${HEALTH_PATH}`
  let status: number
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
    status = response.status
  } catch (error) {
    fail(`GET ${url} failed: ${reason(error)}`)
  }
  if (status !== 200) fail(`GET ${url} answered ${status}`)
  // Explicit: an idle keep-alive socket must not hold the process (and Docker's check) open.
  process.exit(0)
}

await main()
