import { connect } from 'node:net'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { useTestHashingCost } from '../accounts/passwords'
import { buildApp, type AppOptions } from '../app'
import { loadConfig } from '../config/config'
import { recordContract } from './contract-recorder'

/**
 * An app over a fixture dist/, logging into memory (tests read the lines), silent by default.
 * Give it a database (testDatabase()), or a place to open one (dataDir/databaseUrl), when the
 * test uses the API; without either the app runs in API_UPSTREAM mode towards a closed port, so
 * nothing opens a database. Its /api traffic is checked against its OpenAPI document when it
 * closes (contract-recorder.ts).
 */
export async function testApp(
  distDir: string,
  {
    realPasswordHashing = false,
    ...overrides
  }: Partial<AppOptions> & {
    /** scrypt at the server's cost (accounts/passwords.ts): the tests about answer timing. */
    realPasswordHashing?: boolean
  } = {},
): Promise<{ app: FastifyInstance; logLines: () => Record<string, unknown>[] }> {
  useTestHashingCost(!realPasswordHashing)
  const lines: string[] = []
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      done()
    },
  })
  const app = await buildApp({
    ...loadConfig({}),
    logLevel: 'silent',
    distDir,
    logStream,
    ...(overrides.database || overrides.dataDir ? {} : { apiUpstream: 'http://127.0.0.1:9/api' }),
    // Off (0): a test process's own work (hashing, building apps, compiling validators) holds
    // the loop for seconds at times; the tests of load shedding itself set their limits.
    loadShedding: { maxEventLoopDelay: 0, sampleInterval: 1000 },
    // Likewise the API's queue waits up to a minute here: tests that send many requests at once
    // must not get 503s from a machine slowed by other tests; admission.test.ts sets its own.
    admission: { maxWaitMs: 60_000 },
    // Off unless a test asks (mfa-requirement.test.ts): the other tests act as an admin who has
    // no second factor, which MFA_REQUIRED's default would confine to setting one up.
    mfaRequired: 'off',
    // A session stream ends as soon as it opens (inject waits for an answer's end); the tests of
    // the stream itself (session-events-api.test.ts) keep it open.
    sessionWatch: { maxMs: 0 },
    ...overrides,
  })
  recordContract(app)
  return { app, logLines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) }
}

export interface RawResponse {
  status: number
  head: string
  body: string
}

/**
 * Sends bytes exactly as written, over a plain socket: unlike fetch or inject, nothing on the way
 * normalizes `..` or decodes `%2e`, so the server sees what an attacker would send.
 */
export function rawRequest(port: number, requestText: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.setTimeout(5000, () => socket.destroy(new Error('raw request timed out')))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
      resolve({ status, head, body })
    })
    socket.write(requestText)
  })
}

export function rawGet(port: number, target: string): Promise<RawResponse> {
  return rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
}

export async function listenOnFreePort(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return address.port
}

/**
 * Resolves once `condition` holds, looked at every `everyMs`. No time limit of its own: a wait
 * for an event, not a guess of the machine's pace; a file that never sees it fails after the test
 * runner's limit (scripts/run-unit-tests.ts), named.
 */
export async function until(condition: () => boolean, everyMs = 20): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, everyMs))
}

/**
 * The turns of the event loop while `work` runs: those a request waiting would get (on SQLite a
 * statement holds the loop). `work` may read the count so far.
 */
export async function turnsDuring(
  work: (turnsSoFar: () => number) => Promise<unknown>,
): Promise<number> {
  let turns = 0
  let counting = true
  const turn = () => {
    if (!counting) return
    turns++
    setImmediate(turn)
  }
  setImmediate(turn)
  try {
    await work(() => turns)
  } finally {
    counting = false
  }
  return turns
}

/** Keeps the event loop busy for `ms`, as a slow handler or a starved process would. */
export function holdEventLoop(ms: number): void {
  const until = Date.now() + ms
  while (Date.now() < until) {
    // busy on purpose
  }
}

/**
 * A GET route on `app` whose answer waits for the test: `arrived` resolves once a request is in
 * its handler (in flight, so a drain must wait for it), `release` lets it answer { done: true }.
 */
export function heldRoute(app: FastifyInstance, path: string) {
  let release: () => void = () => {}
  let arrive: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  app.get(path, async () => {
    arrive()
    await held
    return { done: true }
  })
  return { arrived, release }
}
