import assert from 'node:assert/strict'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { SESSION_ENDED_EVENT } from '../../../common/session-events'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { STREAMS_PER_SESSION } from '../../accounts/session-watch'
import { listenOnFreePort } from '../../test/helpers'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

/**
 * GET /api/auth/session-events on a listening server: an open browser learns that its session
 * ended elsewhere from the stream itself, with the code its next call would get.
 */

const clock = new TestClock()
let api: ApiFixture
let port: number
before(async () => {
  api = await apiFixture({
    clock: clock.now,
    authRateLimit: 1_000_000,
    // Looked at often, so that the tests wait little; the heartbeat and the limit out of the way.
    sessionWatch: { watchMs: 20, heartbeatMs: 600_000, maxMs: 600_000 },
    // A drain that waited for the streams would wait this long, and say so in the log.
    drain: { graceMs: 30_000, idleCloseMs: 100 },
    // One request at a time, refused after 2 s of waiting: a stream holding the place would
    // turn every other call away.
    admission: { concurrency: 1, maxWaitMs: 2000 },
  })
  port = await listenOnFreePort(api.app)
})
after(() => api.close())

interface OpenStream {
  response: IncomingMessage
  /** Everything received so far. */
  text: () => string
  /** Resolves with everything received once the server ends the stream. */
  ended: Promise<string>
}

/** Opens the stream as the panel does: the session's token, marked as background work. */
function openStream(token: string | null): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        port,
        host: '127.0.0.1',
        path: '/api/auth/session-events',
        headers: {
          accept: 'text/event-stream',
          'x-painel-background': '1',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        const ended = new Promise<string>((done) => {
          response.on('data', (chunk: string) => (text += chunk))
          response.on('end', () => done(text))
        })
        resolve({ response, text: () => text, ended })
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** The events of a stream's text, as name and parsed data (comment lines left out). */
const eventsIn = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [name = '', data = ''] = block.split('\n')
      const parsed = JSON.parse(data.slice('data: '.length)) as { error: { code: string } }
      return { name: name.slice('event: '.length), data: parsed }
    })

describe(`GET /api/auth/session-events (${testStoreName()})`, () => {
  it('opens a stream of server-sent events that stays open while the session works', async () => {
    const ana = await api.person('stream-aberto')
    const stream = await openStream(ana.token)
    assert.equal(stream.response.statusCode, 200)
    assert.match(String(stream.response.headers['content-type']), /^text\/event-stream/)
    assert.equal(stream.response.headers['cache-control'], 'no-store')
    // Still open after many looks at the session (every 20 ms), and the person's calls work.
    const other = await openStream(ana.token)
    const me = await api.call('GET', '/api/auth/me', ana.token)
    assert.equal(me.statusCode, 200, 'the streams hold no place in the admission queue')
    other.response.destroy()
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.equal(stream.response.complete, false)
    assert.deepEqual(eventsIn(stream.text()), [])
    stream.response.destroy()
  })

  it('an admin disables the account: the stream says so with the 401’s code and words, and ends', async () => {
    const bia = await api.person('stream-desativada')
    const stream = await openStream(bia.token)
    const admin = await api.signIn(ADMIN.email, ADMIN.password)
    const disabled = await api.call('PATCH', `/api/staff/${bia.id}`, admin, { status: 'disabled' })
    assert.equal(disabled.statusCode, 200, disabled.body)

    const events = eventsIn(await stream.ended)
    const next = await api.call('GET', '/api/auth/me', bia.token)
    assert.equal(next.statusCode, 401)
    assert.deepEqual(events, [{ name: SESSION_ENDED_EVENT, data: next.json<unknown>() }])
    assert.equal(next.json<{ error: { code: string } }>().error.code, 'session_account_disabled')
  })

  it('"Sair" in another tab of the same session ends the stream as a token no longer known', async () => {
    const caio = await api.person('stream-saiu')
    const stream = await openStream(caio.token)
    assert.equal((await api.call('POST', '/api/auth/logout', caio.token)).statusCode, 204)
    const [ended] = eventsIn(await stream.ended)
    assert.equal(ended?.data.error.code, 'unauthenticated')
  })

  it('a session holds four streams at most: a fifth ends the oldest, without an event', async () => {
    const fabio = await api.person('stream-muitos')
    const streams: OpenStream[] = []
    for (let index = 0; index <= STREAMS_PER_SESSION; index += 1)
      streams.push(await openStream(fabio.token))
    assert.equal(await streams[0]!.ended, ': open\n\n')
    for (const stream of streams.slice(1)) assert.equal(stream.response.complete, false)
    for (const stream of streams) stream.response.destroy()
  })

  it('without a session: 401, and no stream', async () => {
    const stream = await openStream(null)
    assert.equal(stream.response.statusCode, 401)
    assert.match(String(stream.response.headers['content-type']), /json/)
    await stream.ended
  })

  it('the stream is no use of the session: its idle end does not slide', async () => {
    const dora = await api.person('stream-ocioso')
    const before = await api.lastSeen(dora.id)
    // Past the minute within which a use is not written again (accounts/sessions.ts).
    clock.advance(2 * 60_000)
    // Its headers have come: the session's check (where a use slides the idle end) is behind it.
    const stream = await openStream(dora.token)
    assert.equal(await api.lastSeen(dora.id), before, 'the stream slid the idle end')
    // Where a call of the person's own writes it.
    assert.equal((await api.call('GET', '/api/auth/me', dora.token)).statusCode, 200)
    assert.equal(await api.lastSeen(dora.id), clock.now().getTime())
    stream.response.destroy()
  })

  // Last: it closes the app.
  it('a shutdown ends the open streams as the drain starts: it does not wait out its grace', async () => {
    const eva = await api.person('stream-desligado')
    const stream = await openStream(eva.token)
    await api.app.close()
    assert.deepEqual(eventsIn(await stream.ended), [], 'no event: the session still works')
    assert.ok(
      !api.logLines().some((line) => String(line.msg).includes('cutting the connections left')),
      'the drain did not have to cut the stream',
    )
  })
})
