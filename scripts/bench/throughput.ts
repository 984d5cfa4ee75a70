/**
 * Requests per second, latency and CPU time per request of the Painel server under load on
 * loopback, beside two yardsticks serving the same dist/: nginx when it is installed, and Node's
 * own http module with nothing on top (bare-node-static.mjs), the floor of any Node server.
 * autocannon runs in this process: on a 2-core machine it shares the CPU with the server, the
 * same handicap for all three.
 */
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { BARE_NODE_SETUP, startBareNode, type RunningBareNode } from './bare-node'
import { cpuMs } from './cpu'
import type { BuildUnderTest } from './dist-snapshot'
import { probe, type ProbeAnswer } from './http-probe'
import { findNginx, NGINX_INSTALL_HINT, NGINX_SETUP, startNginx, type RunningNginx } from './nginx'
import { PAINEL_LOG_LEVEL, startPainel, type PainelServer } from './painel-server'
import { outputFor, toUrl } from '../build/metafile'
import { readMetafile, routeEntryPoints, routeFiles } from '../build/route-bytes'
import { readBuiltRouteTable } from '../build/route-table'
import { round } from './stats'

type ServerName = 'Painel' | 'bare Node' | 'nginx'
type CaseId = 'page' | 'chunk-br' | 'chunk-gzip' | 'page-304' | 'largest-br'

interface Case {
  id: CaseId
  label: string
  path: string
  headers: Record<string, string>
  status: 200 | 304
  /** Content-Encoding the answer must have (null: none). Not checked on a 304. */
  encoding: 'br' | 'gzip' | null
  cacheControl: string
}

export interface CaseResult {
  case: CaseId
  label: string
  server: ServerName
  requestsPerSecond: number
  latencyP50Ms: number
  latencyP99Ms: number
  latencyMeanMs: number
  /** Answers that were neither 2xx nor 3xx (1xx, 4xx, 5xx). */
  not2xx3xx: number
  errors: number
  timeouts: number
  totalRequests: number
  bytesPerResponse: number
  statusCodes: Record<string, number>
  /** The server's CPU time during the measured run, as % of one core (null without /proc). */
  serverCpuPercent: number | null
  /** The server's CPU time per request, in microseconds: its cost whatever limits req/s. */
  serverCpuMicrosPerRequest: number | null
  /** autocannon's own CPU (this process), as % of one core: near 100, it is the bottleneck. */
  clientCpuPercent: number
}

export interface ThroughputResult {
  connections: number
  warmupSeconds: number
  durationSeconds: number
  painel: { logLevel: string }
  nginx: { version: string; setup: string } | { skipped: string }
  bareNode: { setup: string }
  scripts: BenchScripts
  cases: CaseResult[]
  /** Anything that did not answer as it should; the run fails when there is any. */
  problems: string[]
}

export interface BenchScripts {
  /** The login page's own chunk: fetched on every cold #/login, small, with .br/.gz siblings. */
  chunk: string
  /** The largest script a cold #/login fetches. */
  largest: string
}

/**
 * The scripts of the .js cases, from the metafile. The four cases the goal is about use a small
 * chunk, so that they measure what a server spends per request; the largest script's answer is
 * ~80 KB, and then the load generator, at a full core, is what limits both servers (the fifth
 * row shows it). The entry itself is under 1 KB, the size from which siblings are made, so it
 * would not test precompressed serving at all.
 */
async function benchScripts(distDir: string): Promise<BenchScripts> {
  const metafile = await readMetafile(join(distDir, 'metafile.json'))
  const entryPoints = routeEntryPoints(await readBuiltRouteTable(distDir))
  const scripts = routeFiles(metafile, entryPoints, '#/login').filter((file) =>
    file.endsWith('.js'),
  )
  const sizes = new Map<string, number>()
  for (const file of scripts) sizes.set(file, (await stat(join(distDir, file))).size)
  const largest = [...sizes].sort((a, b) => b[1] - a[1])[0]?.[0]
  const chunk = toUrl(outputFor(metafile, entryPoints['#/login'][0]!))
  if (!largest) throw new Error('the metafile lists no script for #/login')
  for (const file of [chunk, largest]) {
    for (const sibling of ['.br', '.gz']) {
      if (!existsSync(join(distDir, file + sibling))) {
        throw new Error(`${file} has no ${sibling} sibling: the .js cases need one`)
      }
    }
  }
  return { chunk: `/${chunk}`, largest: `/${largest}` }
}

async function casesFor(baseURL: string, scripts: BenchScripts): Promise<Case[]> {
  // Each server computes its own ETag; the conditional request must carry the one it gave.
  const etag = (await probe(`${baseURL}/`)).headers.etag
  if (!etag) throw new Error(`${baseURL}/ sent no ETag`)
  const page = 'no-cache'
  const asset = 'public, max-age=31536000, immutable'
  return [
    {
      id: 'page',
      label: 'GET /',
      path: '/',
      headers: {},
      status: 200,
      encoding: null,
      cacheControl: page,
    },
    {
      id: 'chunk-br',
      label: 'chunk .js, br',
      path: scripts.chunk,
      headers: { 'accept-encoding': 'br' },
      status: 200,
      encoding: 'br',
      cacheControl: asset,
    },
    {
      id: 'chunk-gzip',
      label: 'chunk .js, gzip',
      path: scripts.chunk,
      headers: { 'accept-encoding': 'gzip' },
      status: 200,
      encoding: 'gzip',
      cacheControl: asset,
    },
    {
      id: 'page-304',
      label: 'GET / If-None-Match',
      path: '/',
      headers: { 'if-none-match': etag },
      status: 304,
      encoding: null,
      cacheControl: page,
    },
    {
      id: 'largest-br',
      label: 'largest .js, br',
      path: scripts.largest,
      headers: { 'accept-encoding': 'br' },
      status: 200,
      encoding: 'br',
      cacheControl: asset,
    },
  ]
}

/** Size of the answer as it crossed the wire (status line, headers, body), to compare under load. */
function wireSize(answer: ProbeAnswer): number {
  let size = `HTTP/1.1 ${answer.status} \r\n\r\n`.length + answer.bodyBytes
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
    size += `${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}\r\n`.length
  }
  return size
}

/** What a single request gets: it must be what the case expects before it is worth loading. */
async function checkAnswer(
  server: ServerName,
  baseURL: string,
  test: Case,
): Promise<{ problems: string[]; size: number }> {
  const answer = await probe(`${baseURL}${test.path}`, test.headers)
  const problems: string[] = []
  const where = `${server} ${test.label}`
  if (answer.status !== test.status)
    problems.push(`${where}: status ${answer.status}, expected ${test.status}`)
  if (test.status === 200) {
    const encoding = answer.headers['content-encoding'] ?? null
    if (encoding !== test.encoding) {
      problems.push(
        `${where}: Content-Encoding ${encoding ?? 'none'}, expected ${test.encoding ?? 'none'}`,
      )
    }
    if (answer.headers['cache-control'] !== test.cacheControl) {
      problems.push(
        `${where}: Cache-Control "${answer.headers['cache-control']}", expected "${test.cacheControl}"`,
      )
    }
    if (!/accept-encoding/i.test(String(answer.headers.vary ?? ''))) {
      problems.push(`${where}: no Vary: Accept-Encoding`)
    }
    if (!answer.headers.etag) problems.push(`${where}: no ETag`)
  }
  return { problems, size: wireSize(answer) }
}

interface Target {
  name: ServerName
  baseURL: string
  pids: () => number[]
  cases: Case[]
}

async function load(
  server: Target,
  test: Case,
  settings: { connections: number; warmupSeconds: number; durationSeconds: number },
): Promise<CaseResult> {
  const options = {
    url: `${server.baseURL}${test.path}`,
    headers: test.headers,
    connections: settings.connections,
    timeout: 10,
  }
  // The warm-up is a run of its own (not autocannon's `warmup`) so the CPU counters below cover
  // the measured seconds only.
  await autocannon({ ...options, duration: settings.warmupSeconds })
  const pids = server.pids()
  const serverBefore = cpuMs(pids)
  const clientBefore = process.cpuUsage()
  const started = performance.now()
  const result = await autocannon({ ...options, duration: settings.durationSeconds })
  const wallMs = performance.now() - started
  const client = process.cpuUsage(clientBefore)
  const serverAfter = cpuMs(pids)
  const serverMs = serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
  )
  return {
    case: test.id,
    label: test.label,
    server: server.name,
    requestsPerSecond: round(result.requests.mean),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMeanMs: round(result.latency.mean, 2),
    not2xx3xx: result['1xx'] + result['4xx'] + result['5xx'],
    errors: result.errors,
    timeouts: result.timeouts,
    totalRequests: result.requests.total,
    bytesPerResponse:
      result.requests.total > 0 ? round(result.throughput.total / result.requests.total) : 0,
    statusCodes,
    serverCpuPercent: serverMs === null ? null : round((serverMs / wallMs) * 100),
    serverCpuMicrosPerRequest:
      serverMs === null || result.requests.total === 0
        ? null
        : round((serverMs * 1000) / result.requests.total),
    clientCpuPercent: round(((client.user + client.system) / 1000 / wallMs) * 100),
  }
}

/** Under load every answer must still be the expected one: same status, about the same size. */
function checkLoad(result: CaseResult, test: Case, expectedSize: number): string[] {
  const where = `${result.server} ${test.label} under load`
  const problems: string[] = []
  const unexpected = Object.entries(result.statusCodes).filter(
    ([code]) => Number(code) !== test.status,
  )
  if (unexpected.length > 0) {
    problems.push(
      `${where}: statuses ${unexpected.map(([code, count]) => `${code}×${count}`).join(', ')}`,
    )
  }
  if (result.errors > 0 || result.timeouts > 0) {
    problems.push(`${where}: ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  if (result.totalRequests === 0) problems.push(`${where}: no request completed`)
  // br, gzip and raw differ by many KB: a wrong encoding would show here at once.
  if (Math.abs(result.bytesPerResponse - expectedSize) > Math.max(200, expectedSize * 0.1)) {
    problems.push(
      `${where}: ${result.bytesPerResponse} bytes per answer, the single answer had ${expectedSize}`,
    )
  }
  return problems
}

export async function measureThroughput(
  build: BuildUnderTest,
  settings: { connections: number; warmupSeconds: number; durationSeconds: number },
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const scripts = await benchScripts(build.distDir)
  const install = findNginx()
  if (!install) log(`  ${NGINX_INSTALL_HINT}`)

  let painel: PainelServer | undefined
  let nginx: RunningNginx | undefined
  let bareNode: RunningBareNode | undefined
  try {
    painel = await startPainel(build)
    log(
      `  Painel: node dist/server/main.js on ${painel.baseURL}, LOG_LEVEL=${PAINEL_LOG_LEVEL} (no per-request log lines)`,
    )
    if (install) {
      nginx = await startNginx(install, build.distDir)
      log(`  nginx ${install.version} on ${nginx.baseURL}: ${NGINX_SETUP}`)
    }
    bareNode = await startBareNode(build.distDir)
    log(`  ${BARE_NODE_SETUP}, on ${bareNode.baseURL}`)
    const painelPid = painel.pid
    const bareNodePid = bareNode.pid
    const servers: Target[] = [
      {
        name: 'Painel',
        baseURL: painel.baseURL,
        pids: () => (painelPid === undefined ? [] : [painelPid]),
        cases: await casesFor(painel.baseURL, scripts),
      },
      {
        name: 'bare Node',
        baseURL: bareNode.baseURL,
        pids: () => (bareNodePid === undefined ? [] : [bareNodePid]),
        cases: await casesFor(bareNode.baseURL, scripts),
      },
    ]
    if (nginx) {
      servers.push({
        name: 'nginx',
        baseURL: nginx.baseURL,
        pids: nginx.pids,
        cases: await casesFor(nginx.baseURL, scripts),
      })
    }

    const problems: string[] = []
    const results: CaseResult[] = []
    const caseCount = servers[0]!.cases.length
    // Case by case, the servers in turn: a busy spell of the shared machine hits both alike.
    for (let index = 0; index < caseCount; index++) {
      for (const server of servers) {
        const test = server.cases[index]!
        const checked = await checkAnswer(server.name, server.baseURL, test)
        if (checked.problems.length > 0) {
          problems.push(...checked.problems)
          log(
            `  ${server.name} ${test.label}: SKIPPED, wrong answer (${checked.problems.join('; ')})`,
          )
          continue
        }
        const result = await load(server, test, settings)
        problems.push(...checkLoad(result, test, checked.size))
        results.push(result)
        log(
          `  ${server.name} ${test.label}: ${result.requestsPerSecond} req/s, ` +
            `p99 ${result.latencyP99Ms} ms, server CPU ${result.serverCpuPercent ?? 'n/a'}%`,
        )
      }
    }
    return {
      ...settings,
      painel: { logLevel: PAINEL_LOG_LEVEL },
      nginx: install
        ? { version: install.version, setup: NGINX_SETUP }
        : { skipped: NGINX_INSTALL_HINT },
      bareNode: { setup: BARE_NODE_SETUP },
      scripts,
      cases: results,
      problems,
    }
  } finally {
    await nginx?.stop()
    await bareNode?.stop()
    await painel?.stop()
  }
}
