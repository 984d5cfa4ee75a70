import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from './config'

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env)
  } catch (error) {
    assert.ok(error instanceof ConfigError)
    return error.problems
  }
  assert.fail('expected a ConfigError')
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    assert.deepEqual(loadConfig({}), {
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      https: false,
    })
  })

  it('reads good values, trimming blanks and ignoring case where it does not matter', () => {
    assert.deepEqual(
      loadConfig({ PORT: ' 3000 ', HOST: '0.0.0.0', LOG_LEVEL: 'WARN', HTTPS: 'yes' }),
      {
        port: 3000,
        host: '0.0.0.0',
        logLevel: 'warn',
        https: true,
      },
    )
    assert.equal(loadConfig({ HOST: '::' }).host, '::')
    assert.equal(loadConfig({ HOST: 'localhost' }).host, 'localhost')
    assert.equal(loadConfig({ PORT: '0' }).port, 0)
    assert.equal(loadConfig({ PORT: '' }).port, 8080)
  })

  const bad: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT="abc" is not a port/],
    [{ PORT: '70000' }, /^PORT="70000" is not a port/],
    [{ PORT: '-1' }, /^PORT="-1" is not a port/],
    [{ PORT: '80.5' }, /^PORT="80.5" is not a port/],
    [{ PORT: '0x50' }, /^PORT="0x50" is not a port/],
    [{ HOST: 'not a host!' }, /^HOST="not a host!" is not an address/],
    [{ HOST: 'http://0.0.0.0' }, /^HOST="http:\/\/0.0.0.0" is not an address/],
    [
      { LOG_LEVEL: 'verbose' },
      /^LOG_LEVEL="verbose" is not one of fatal, error, warn, info, debug, trace, silent/,
    ],
    [{ HTTPS: 'maybe' }, /^HTTPS="maybe" is not a yes\/no value/],
  ]
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)} with a message naming it`, () => {
      const problems = problemsOf(env)
      assert.equal(problems.length, 1)
      assert.match(problems[0] ?? '', message)
    })
  }

  it('lists every problem at once', () => {
    const problems = problemsOf({ PORT: 'x', HOST: '!', LOG_LEVEL: 'loud' })
    assert.equal(problems.length, 3)
  })

  it('keeps a hostile value short and printable in the message', () => {
    const [problem = ''] = problemsOf({ PORT: `\u001b[31m${'9'.repeat(500)}` })
    assert.ok(problem.length < 200)
    assert.equal(problem.includes('\u001b'), false)
  })
})
