import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { PasswordStrength } from '../../../common/api/auth'
import { TYPING_LIMIT_FACTOR } from '../../built-in-api'
import { apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { guessableWords } from './password-strength-routes'
import { EstimatorBusyError, StrengthEstimator } from './strength-estimator'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

const estimate = (body: object, headers: Record<string, string> = {}) =>
  api.post('/api/auth/password-strength', body, headers)

describe(`the password strength estimate (${testStoreName()})`, () => {
  it('rates a weak password low with pt-BR advice, a long passphrase high, without a sign-in', async () => {
    const weak = await estimate({ password: 'qwertyuiop' })
    assert.equal(weak.statusCode, 200, weak.body)
    const weakAnswer = weak.json<PasswordStrength>()
    assert.ok(weakAnswer.score <= 1, weak.body)
    assert.match(weakAnswer.warning ?? '', /[a-zà-ú]/i)
    assert.doesNotMatch(weakAnswer.warning ?? '', /\b(is|are|the|common)\b/, 'advice in pt-BR')
    assert.equal(weak.headers['cache-control'], 'no-store')

    const strong = (
      await estimate({ password: 'grampo cavalo torto bateria nublada' })
    ).json<PasswordStrength>()
    assert.equal(strong.score, 4)
    assert.equal(strong.warning, null)
    assert.equal(strong.common, false)
  })

  it('says the policy will refuse a common password, and rates it the weakest', async () => {
    const answer = (await estimate({ password: 'Flamengo2024!' })).json<PasswordStrength>()
    assert.deepEqual({ common: answer.common, score: answer.score }, { common: true, score: 0 })
  })

  it('counts what the person typed elsewhere in the form as easy to guess', async () => {
    const password = 'ribeirao-gusmao'
    const alone = (await estimate({ password })).json<PasswordStrength>()
    const withName = (
      await estimate({ password, userInputs: ['Ribeirão Gusmão', 'rgusmao@example.com'] })
    ).json<PasswordStrength>()
    assert.ok(withName.score < alone.score, `${withName.score} < ${alone.score}`)
  })

  it('never writes the password to the log', async () => {
    const password = 'segredo-que-nao-vai-ao-log-7391'
    assert.equal((await estimate({ password })).statusCode, 200)
    assert.equal((await estimate({ password, extra: 1 })).statusCode, 400)
    const log = JSON.stringify(api.logLines())
    assert.ok(log.includes('password-strength'), 'the requests were logged')
    assert.ok(!log.includes(password), 'the password is not')
  })

  it('refuses bad input with 400', async () => {
    for (const body of [
      {},
      { password: '' },
      { password: 1 },
      { password: 'x'.repeat(513) },
      { password: 'abcdefgh', userInputs: ['a', 'b', 'c', 'd', 'e'] },
      { password: 'abcdefgh', userInputs: ['x'.repeat(321)] },
    ]) {
      const response = await estimate(body)
      assert.equal(response.statusCode, 400, JSON.stringify(body))
      assert.equal(errorOf(response).code, 'invalid_input')
    }
  })

  it('answers a 128-character password of symbols quickly: only its first 32 characters are looked at', async () => {
    const password = Array.from({ length: 128 }, (_, i) =>
      String.fromCharCode(33 + ((i * 7) % 90)),
    ).join('')
    const response = await estimate({ password })
    assert.equal(response.statusCode, 200)
    assert.equal(response.json<PasswordStrength>().score, 4)
  })
})

describe(`the password meter's own limit per address (${testStoreName()})`, () => {
  it("does not use up the sign-ins' burst limit, and has a limit of its own", async () => {
    const limited = await apiFixture({ authRateLimit: 2 })
    try {
      const ask = () => limited.post('/api/auth/password-strength', { password: 'abcdefgh' })
      for (let i = 0; i < 2 * TYPING_LIMIT_FACTOR; i++) assert.equal((await ask()).statusCode, 200)
      // The sign-ins' count is untouched: a wrong password is a 401, not a 429.
      const signIn = await limited.post('/api/auth/login', {
        email: 'ninguem@example.com',
        password: 'errada-mas-contada',
      })
      assert.equal(signIn.statusCode, 401, signIn.body)
      const over = await ask()
      assert.equal(over.statusCode, 429)
      assert.equal(errorOf(over).code, 'too_many_attempts')
    } finally {
      await limited.close()
    }
  })
})

describe('the estimator thread', () => {
  it('refuses at once what would wait beyond its queue, and answers the rest', async () => {
    const estimator = new StrengthEstimator(2)
    try {
      const asked = Array.from({ length: 5 }, (_, i) =>
        estimator.estimate(`palavra-${i}-${'x'.repeat(20)}`, []).then(
          (strength) => strength.score,
          (error: unknown) => error,
        ),
      )
      const answers = await Promise.all(asked)
      // One running and two waiting are answered; the two beyond are refused.
      assert.equal(answers.filter((answer) => typeof answer === 'number').length, 3)
      const refused = answers.filter((answer) => answer instanceof EstimatorBusyError)
      assert.equal(refused.length, 2)
      assert.equal((refused[0] as EstimatorBusyError).statusCode, 503)
    } finally {
      await estimator.close()
    }
  })

  it('starts a new thread after its thread dies, and refuses what waits when closed', async () => {
    const estimator = new StrengthEstimator()
    try {
      assert.equal(typeof (await estimator.estimate('primeira-senha-1', [])).score, 'number')
      // The thread is lost (as if it crashed): the next estimate gets a new one.
      const internals = estimator as unknown as { worker: { terminate(): Promise<number> } | null }
      await internals.worker?.terminate()
      assert.equal(typeof (await estimator.estimate('segunda-senha-2', [])).score, 'number')
      // Closing stops the thread under the running estimate and refuses what waits behind it.
      const settled = Promise.allSettled([
        estimator.estimate('terceira-senha-3', []),
        estimator.estimate('quarta-senha-4', []),
      ])
      await estimator.close()
      const [running, waiting] = await settled
      assert.equal(running.status, 'rejected', 'the thread is stopped under it')
      assert.ok(waiting.status === 'rejected' && waiting.reason instanceof EstimatorBusyError)
    } finally {
      await estimator.close()
    }
  })
})

describe('guessableWords', () => {
  it('gives zxcvbn each entry, its words, the e-mail before the @, and all of them without accents', () => {
    assert.deepEqual(guessableWords(['  Ana Clara Sá ', 'ana.souza@empresa.com.br', '']).sort(), [
      'ana',
      'ana clara sa',
      'ana clara sá',
      'ana.souza',
      'ana.souza@empresa.com.br',
      'clara',
      'souza',
    ])
  })
})
