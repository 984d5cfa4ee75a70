import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { freePortSync } from '../../scripts/free-port'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { holdAuditLog } from '../test/held-audit-log'
import { heldRoute, holdEventLoop, listenOnFreePort, testApp } from '../test/helpers'
import { HashingBusyError } from '../accounts/hashing-queue'
import { EstimatorBusyError } from '../features/password-strength/strength-estimator'
import { QueueRefusal } from '../http/admission'
import { REFUSAL_REASONS } from '../http/refusals'

/** A sample's value in Prometheus' text format, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('METRICS_PORT', () => {
  let api: ApiFixture
  let metricsPort: number
  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
    return response.text()
  }

  before(async () => {
    metricsPort = freePortSync()
    api = await apiFixture({ metricsPort, host: '127.0.0.1' })
  })
  after(() => api.close())

  it('counts requests by route pattern and status, sign-ins by outcome, lock-outs, mails and queries', async () => {
    await api.app.ready()
    await api.get('/healthz')
    await api.get('/healthz')
    await api.get('/nada/aqui')
    await api.signIn(ADMIN.email, ADMIN.password)
    const locked = 'trancado@example.com'
    await api.addAccount({ email: locked, password: 'senha-certa-123' })
    let status = 0
    for (let attempt = 0; attempt < 12 && status !== 429; attempt += 1) {
      status = (await api.post('/api/auth/login', { email: locked, password: 'errada-000' }))
        .statusCode
    }
    assert.equal(status, 429, 'the account got locked')
    await api.post('/api/auth/password-recovery', { email: ADMIN.email })
    await api.mail.next(ADMIN.email)

    const text = await scrape()
    assert.equal(
      sample(text, 'painel_http_requests_total{method="GET",route="/healthz",status="200"}'),
      2,
    )
    assert.equal(
      sample(text, 'painel_http_requests_total{method="GET",route="unmatched",status="404"}'),
      1,
    )
    assert.ok(
      (sample(
        text,
        'painel_http_request_duration_seconds_count{method="POST",route="/api/auth/login",status="200"}',
      ) ?? 0) >= 1,
    )
    assert.match(
      text,
      /painel_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz",status="200"\}/,
    )
    assert.equal(sample(text, 'painel_sign_ins_total{outcome="signed_in"}'), 1)
    assert.ok((sample(text, 'painel_sign_ins_total{outcome="invalid_credentials"}') ?? 0) >= 1)
    assert.equal(sample(text, 'painel_sign_in_lockouts_total'), 1)
    assert.equal(sample(text, 'painel_mails_total{result="sent"}'), 1)
    assert.equal(sample(text, 'painel_mails_total{result="failed"}'), 0)
    assert.ok((sample(text, 'painel_db_query_duration_seconds_count') ?? 0) > 5)
    for (const family of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.match(text, new RegExp(`^# TYPE ${family} `, 'm'), family)
    }
  })

  it('the public port has no /metrics (404 in the standard shape); the metrics port has nothing else', async () => {
    const publicAnswer = await api.get('/metrics')
    assert.equal(publicAnswer.statusCode, 404)
    assert.equal(publicAnswer.json<{ error: { code: string } }>().error.code, 'not_found')
    assert.doesNotMatch(publicAnswer.body, /painel_|nodejs_/)
    const other = await fetch(`http://127.0.0.1:${metricsPort}/`)
    assert.equal(other.status, 404)
  })
})

describe('METRICS_PORT: every refusal counted by its reason', () => {
  let api: ApiFixture
  let metricsPort: number
  let port: number
  let at = 0
  before(async () => {
    metricsPort = freePortSync()
    api = await apiFixture({
      metricsPort,
      host: '127.0.0.1',
      timeouts: { headersMs: 100, requestMs: 200, keepAliveMs: 5000 },
      admission: { concurrency: 1, maxWaitMs: 1000, now: () => at },
    })
    port = await listenOnFreePort(api.app)
  })
  after(() => api.close())

  it('a 408 of a slow client and a 503 of the API queue', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const slow = connect(port, '127.0.0.1')
    const closed = new Promise((resolve) => slow.on('close', resolve))
    slow.on('data', () => {})
    slow.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    await closed

    const hold = await holdAuditLog(api.database)
    const running = api.get('/api/audit', token)
    await new Promise((resolve) => setImmediate(resolve))
    const waiting = api.get('/api/audit', token)
    await new Promise((resolve) => setImmediate(resolve))
    at += 1001
    hold.release()
    await hold.done
    assert.equal((await running).statusCode, 200)
    assert.equal((await waiting).statusCode, 503)

    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
    assert.equal(sample(text, 'painel_refusals_total{reason="request_timeout"}'), 1)
    assert.equal(sample(text, 'painel_refusals_total{reason="queue_timeout"}'), 1)
    assert.equal(sample(text, 'painel_refusals_total{reason="queue_full"}'), 0)
    assert.equal(
      sample(text, 'painel_http_requests_total{method="GET",route="/api/audit",status="503"}'),
      1,
    )
    // The log an operator reads (warn): the first refusal at once, with its reason.
    const warned = api.logLines().filter((line) => line.level === 40 && 'refusal' in line)
    assert.deepEqual(
      warned.map((line) => line.refusal),
      ['request_timeout'],
    )
  })
})

describe('METRICS_PORT: each refusal counted once, under its own reason', () => {
  let dist: FixtureDist
  before(async () => {
    dist = await createFixtureDist()
  })
  after(() => dist.cleanup())

  /** The app with metrics on a port of its own, and what a refusal adds to each reason's count. */
  async function countedApp(options: Parameters<typeof testApp>[1] = {}) {
    const metricsPort = freePortSync()
    const { app } = await testApp(dist.distDir, { metricsPort, host: '127.0.0.1', ...options })
    const counts = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
      return Object.fromEntries(
        REFUSAL_REASONS.map((reason) => [
          reason,
          sample(text, `painel_refusals_total{reason="${reason}"}`) ?? 0,
        ]),
      )
    }
    /** One to the reason's own counter, nothing to the others. */
    const assertCountedAs = async (reason: string, refuse: () => Promise<number>) => {
      const before = await counts()
      assert.equal(await refuse(), 503, reason)
      const after = await counts()
      assert.deepEqual(
        Object.fromEntries(REFUSAL_REASONS.map((name) => [name, after[name]! - before[name]!])),
        Object.fromEntries(REFUSAL_REASONS.map((name) => [name, name === reason ? 1 : 0])),
      )
    }
    const status = async (url: string) => (await app.inject({ url })).statusCode
    return { app, assertCountedAs, status }
  }

  it('hashing_busy, estimator_busy, queue_full (under an error handler of its own), draining', async () => {
    const { app, assertCountedAs, status } = await countedApp({
      drain: { graceMs: 5000, idleCloseMs: 5000 },
    })
    // The errors the hashing queue, the password meter and the API queue throw when full.
    app.get('/busy/hashing', async () => {
      throw new HashingBusyError(2)
    })
    app.get('/busy/estimator', async () => {
      throw new EstimatorBusyError()
    })
    await app.register(async (scope) => {
      // As /scim/v2 answers its refusals in its own shape (features/provisioning/scim-http.ts).
      scope.setErrorHandler(async (error: Error & { statusCode?: number }, _request, reply) =>
        reply.code(error.statusCode ?? 500).send({ own: true }),
      )
      scope.get('/busy/queue', async () => {
        throw new QueueRefusal('queue_full', 2)
      })
    })
    const slow = heldRoute(app, '/slow')
    const port = await listenOnFreePort(app)

    await assertCountedAs('hashing_busy', () => status('/busy/hashing'))
    await assertCountedAs('estimator_busy', () => status('/busy/estimator'))
    await assertCountedAs('queue_full', () => status('/busy/queue'))

    // Draining: a request in flight holds the close, one on an open connection is refused.
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`)
    const late = connect(port, '127.0.0.1')
    await new Promise((resolve) => late.once('connect', resolve))
    await slow.arrived
    const closed = app.close()
    await new Promise((resolve) => setTimeout(resolve, 20))
    await assertCountedAs('draining', async () => {
      let text = ''
      late.on('data', (chunk) => (text += chunk.toString()))
      const ended = new Promise((resolve) => late.once('close', resolve))
      late.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await ended
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
    })
    slow.release()
    assert.equal((await inFlight).status, 200)
    await closed
  })

  it('event_loop: the request load shedding refuses', async () => {
    // An app of its own: with load shedding on, any late turn of a busy machine refuses.
    const { app, assertCountedAs, status } = await countedApp({
      loadShedding: { maxEventLoopDelay: 300, sampleInterval: 50 },
    })
    await app.ready()
    await assertCountedAs('event_loop', async () => {
      // The loop held, then looked at while the sampler judges the delay (one sampleInterval),
      // until a request is refused: that one is counted (every request here is this loop's).
      for (;;) {
        holdEventLoop(400)
        const looking = Date.now() + 300
        while (Date.now() < looking) {
          const answer = await status('/')
          if (answer === 503) return answer
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      }
    })
    await app.close()
  })
})

describe('without METRICS_PORT', () => {
  let dist: FixtureDist
  before(async () => {
    dist = await createFixtureDist()
  })
  after(() => dist.cleanup())

  it('opens no metrics listener and the public /metrics is a 404', async () => {
    const { app } = await testApp(dist.distDir)
    await app.ready()
    assert.equal((await app.inject({ url: '/metrics' })).statusCode, 404)
    await app.close()
  })

  it('a metrics port already in use stops start-up', async () => {
    const blocker = await testApp(dist.distDir)
    const { listenOnFreePort } = await import('../test/helpers')
    const taken = await listenOnFreePort(blocker.app)
    const { app } = await testApp(dist.distDir, { metricsPort: taken, host: '127.0.0.1' })
    await assert.rejects(async () => {
      await app.ready()
    }, /EADDRINUSE/)
    await blocker.app.close()
  })
})
