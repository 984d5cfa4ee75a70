import assert from 'node:assert/strict'
import { resolve } from 'node:path'
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
      trustProxy: false,
      publicUrl: 'http://127.0.0.1:8080',
      dataDir: resolve('data'),
      databaseUrl: null,
      smtpUrl: null,
      mailFrom: 'Painel <painel@localhost>',
      mailRetryDelaySeconds: 10,
      mailRetryForSeconds: 86_400,
      adminEmail: null,
      adminPassword: null,
      sessionTtlSeconds: 12 * 3600,
      sessionIdleSeconds: 30 * 60,
      mfaRequired: 'admins',
      authRateLimit: 60,
      apiUpstream: null,
      metricsPort: null,
      auditRetentionDays: 365,
      apiConcurrency: null,
      queueWaitMs: 500,
      authProviders: [],
      passwordSignIn: true,
    })
  })

  it('METRICS_PORT: a port of its own, never the public one', () => {
    assert.equal(loadConfig({ METRICS_PORT: '9464' }).metricsPort, 9464)
    assert.deepEqual(problemsOf({ METRICS_PORT: '8080' }), [
      'METRICS_PORT=8080 is the public PORT: metrics need a port of their own, never the public one',
    ])
    assert.match(
      problemsOf({ METRICS_PORT: 'prometheus' })[0] ?? '',
      /^METRICS_PORT="prometheus" is not a port/,
    )
  })

  it('reads good values, trimming blanks and ignoring case where it does not matter', () => {
    const config = loadConfig({
      PORT: ' 3000 ',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'WARN',
      HTTPS: 'yes',
      TRUST_PROXY: '10.0.0.0/8, loopback',
      PUBLIC_URL: 'https://painel.example.com/',
      DATA_DIR: '/data',
      DATABASE_URL: 'postgres://painel:s3cret@db:5432/painel',
      SMTP_URL: 'smtps://user:pass@mail.example.com',
      MAIL_FROM: 'Equipe <equipe@example.com>',
      MAIL_RETRY_DELAY: '30',
      MAIL_RETRY_FOR: '2d',
      ADMIN_EMAIL: 'Chefe@Example.com',
      ADMIN_PASSWORD: 'segredo-forte',
      SESSION_TTL: '30m',
      MFA_REQUIRED: ' All ',
      AUTH_RATE_LIMIT: '120',
      API_UPSTREAM: 'http://backend:3000/api',
      METRICS_PORT: ' 9464 ',
      AUDIT_RETENTION: '90',
      API_CONCURRENCY: '16',
      QUEUE_WAIT_MS: '250',
    })
    assert.deepEqual(config, {
      port: 3000,
      host: '0.0.0.0',
      logLevel: 'warn',
      https: true,
      trustProxy: ['10.0.0.0/8', 'loopback'],
      publicUrl: 'https://painel.example.com',
      dataDir: '/data',
      databaseUrl: 'postgres://painel:s3cret@db:5432/painel',
      smtpUrl: 'smtps://user:pass@mail.example.com',
      mailFrom: 'Equipe <equipe@example.com>',
      mailRetryDelaySeconds: 30,
      mailRetryForSeconds: 172_800,
      // Kept canonical: the one form every comparison uses (common/account-rules.ts).
      adminEmail: 'chefe@example.com',
      adminPassword: 'segredo-forte',
      sessionTtlSeconds: 1800,
      sessionIdleSeconds: 1800,
      mfaRequired: 'all',
      authRateLimit: 120,
      apiUpstream: 'http://backend:3000/api',
      metricsPort: 9464,
      auditRetentionDays: 90,
      apiConcurrency: 16,
      queueWaitMs: 250,
      authProviders: [],
      passwordSignIn: true,
    })
  })

  it('takes in single sign-on: the providers and PASSWORD_SIGN_IN, their problems with the rest', () => {
    const config = loadConfig({
      AUTH_PROVIDERS: 'corp',
      AUTH_CORP_ISSUER_URL: 'https://sso.example.com/realms/staff',
      AUTH_CORP_CLIENT_ID: 'painel',
      AUTH_CORP_CLIENT_SECRET: 'segredo',
      PASSWORD_SIGN_IN: 'off',
    })
    assert.deepEqual(
      config.authProviders.map((provider) => [provider.name, provider.issuerUrl]),
      [['corp', 'https://sso.example.com/realms/staff']],
    )
    assert.equal(config.passwordSignIn, false)
    const problems = problemsOf({ PORT: 'x', PASSWORD_SIGN_IN: 'off' })
    assert.equal(problems.length, 2, problems.join('\n'))
    assert.match(problems[1] ?? '', /^PASSWORD_SIGN_IN=off needs a provider/)
  })

  it('understands every form of the settings that have several', () => {
    assert.equal(loadConfig({ HOST: '::' }).host, '::')
    assert.equal(loadConfig({ HOST: 'localhost' }).host, 'localhost')
    assert.equal(loadConfig({ PORT: '0' }).port, 0)
    assert.equal(loadConfig({ PORT: '' }).port, 8080)
    assert.equal(loadConfig({ PORT: '9000' }).publicUrl, 'http://127.0.0.1:9000')
    // Without PUBLIC_URL, links name the address the server listens on (the same origin).
    assert.equal(loadConfig({ HOST: '10.0.0.5' }).publicUrl, 'http://10.0.0.5:8080')
    assert.equal(loadConfig({ HOST: 'localhost' }).publicUrl, 'http://localhost:8080')
    assert.equal(loadConfig({ HOST: '::1' }).publicUrl, 'http://[::1]:8080')
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).publicUrl, 'http://127.0.0.1:8080')
    assert.equal(loadConfig({ HOST: '::' }).publicUrl, 'http://[::1]:8080')
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
    assert.equal(loadConfig({ TRUST_PROXY: 'no' }).trustProxy, false)
    assert.deepEqual(loadConfig({ TRUST_PROXY: '::1, fd00::/8' }).trustProxy, ['::1', 'fd00::/8'])
    assert.equal(loadConfig({ SESSION_TTL: '3600' }).sessionTtlSeconds, 3600)
    assert.equal(loadConfig({ SESSION_TTL: '7d' }).sessionTtlSeconds, 7 * 86_400)
    assert.equal(loadConfig({}).sessionIdleSeconds, 30 * 60)
    assert.equal(loadConfig({ SESSION_IDLE_TIMEOUT: '2h' }).sessionIdleSeconds, 7200)
    assert.equal(loadConfig({ MFA_REQUIRED: 'all' }).mfaRequired, 'all')
    assert.equal(loadConfig({ MFA_REQUIRED: 'OFF' }).mfaRequired, 'off')
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl, 'postgresql://h/db')
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
    [{ TRUST_PROXY: 'everyone' }, /^TRUST_PROXY="everyone" is not a proxy setting/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY="10.0.0.0\/33" is not a proxy setting/],
    [{ PUBLIC_URL: 'painel.example.com' }, /^PUBLIC_URL="painel.example.com" is not a URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL="ftp:\/\/x" must start with http:\/\/ or https:\/\//],
    [
      { DATABASE_URL: 'mysql://u:p@h/db' },
      /^DATABASE_URL="mysql:\/\/u:\*\*\*@h\/db" must start with postgres:/,
    ],
    [{ SMTP_URL: 'mail.example.com' }, /^SMTP_URL="\(unparsable URL\)" is not a URL/],
    [{ ADMIN_EMAIL: 'chefe' }, /^ADMIN_EMAIL="chefe" is not an e-mail address/],
    [{ ADMIN_PASSWORD: 'curta' }, /^ADMIN_PASSWORD must have 8 to 128 characters$/],
    [{ SESSION_TTL: '12 hours' }, /^SESSION_TTL="12 hours" is not a duration/],
    [{ SESSION_TTL: '10s' }, /^SESSION_TTL="10s" is not a duration from 60 s to 30 days/],
    [{ SESSION_TTL: '90d' }, /^SESSION_TTL="90d" is not a duration/],
    [{ SESSION_IDLE_TIMEOUT: '0' }, /^SESSION_IDLE_TIMEOUT="0" is not a duration from 60 s/],
    [{ SESSION_IDLE_TIMEOUT: 'soon' }, /^SESSION_IDLE_TIMEOUT="soon" is not a duration/],
    [{ MFA_REQUIRED: 'yes' }, /^MFA_REQUIRED="yes" is not one of admins, all, off$/],
    [{ AUTH_RATE_LIMIT: '0' }, /^AUTH_RATE_LIMIT="0" is not a whole number from 1 to 100000/],
    [{ AUTH_RATE_LIMIT: 'lots' }, /^AUTH_RATE_LIMIT="lots" is not a whole number/],
    [{ AUDIT_RETENTION: '0' }, /^AUDIT_RETENTION="0" is not a whole number from 1 to 36500/],
    [
      { API_UPSTREAM: 'backend:3000' },
      /^API_UPSTREAM="backend:3000" must start with http:\/\/ or https:\/\//,
    ],
  ]
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)} with a message naming it`, () => {
      const problems = problemsOf(env)
      assert.equal(problems.length, 1)
      assert.match(problems[0] ?? '', message)
    })
  }

  it('lists every problem at once', () => {
    assert.equal(problemsOf({ PORT: 'x', HOST: '!', LOG_LEVEL: 'loud' }).length, 3)
  })

  it('never echoes a secret', () => {
    const problems = problemsOf({
      ADMIN_PASSWORD: 'short!',
      DATABASE_URL: 'mysql://user:hunter22@db/x',
    })
    assert.equal(problems.length, 2)
    assert.doesNotMatch(problems.join('\n'), /short!|hunter22/)
  })

  it('keeps a hostile value short and printable in the message', () => {
    const [problem = ''] = problemsOf({ PORT: `\u001b[31m${'9'.repeat(500)}` })
    assert.ok(problem.length < 200)
    assert.equal(problem.includes('\u001b'), false)
  })
})
