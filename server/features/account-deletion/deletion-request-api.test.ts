import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { DeletionRequestList } from '../../../common/api/account-deletion'
import { totpCode } from '../../accounts/totp'
import { errorOf } from '../../test/api-fixture'
import { signedInAdminFixture } from '../../test/signed-in-admin-fixture'
import { turnOnAuthenticator, wrongTotpCode } from '../../test/authenticator-app'
import { testStoreName } from '../../test/test-database'

/**
 * POST /api/me/deletion-request (issue 30: "with the password or a factor"; LGPD art. 18, VI):
 * the password as before, or a code of the authenticator app or a recovery code instead, used as
 * at sign-in and counted like a wrong password; someone without a password of their own who has
 * the app can ask too.
 */

const CODE_USED = 'Painel: código de recuperação usado'

const suite = signedInAdminFixture()

const askDeletion = (token: string, body: object) =>
  suite.api.call('POST', '/api/me/deletion-request', token, body)

/** Whose requests the admins see open. */
async function openRequests(): Promise<string[]> {
  const list = await suite.api.get('/api/staff/deletion-requests', suite.adminToken)
  assert.equal(list.statusCode, 200, list.body)
  return list.json<DeletionRequestList>().requests.map((request) => request.account.id)
}

const failedConfirmations = async (accountId: string) =>
  (await suite.api.events(accountId, 'sign_in_failed'))
    .map((event) => JSON.parse(event.details) as { method?: string; during?: string })
    .filter((details) => details.during === 'confirmation')

describe(`asking for one's deletion with a second factor (${testStoreName()})`, () => {
  it('still takes the password alone (the fixed contract)', async () => {
    const ana = await suite.api.person('exclui')
    const asked = await askDeletion(ana.token, { password: ana.password })
    assert.equal(asked.statusCode, 202, asked.body)
    assert.ok((await openRequests()).includes(ana.id))
  })

  it('takes a current authenticator code, once: the same code again is refused', async () => {
    const bia = await suite.api.person('exclui')
    const { secret } = await turnOnAuthenticator(suite.api, bia.token, suite.clock)
    const code = totpCode(secret, suite.clock.now())
    const asked = await askDeletion(bia.token, { code })
    assert.equal(asked.statusCode, 202, asked.body)
    assert.ok((await openRequests()).includes(bia.id))
    assert.equal((await suite.api.events(bia.id, 'deletion_requested')).length, 1)

    const replayed = await askDeletion(bia.token, { code })
    assert.equal(replayed.statusCode, 400)
    assert.equal(errorOf(replayed).code, 'wrong_code')
    assert.match(errorOf(replayed).message, /O código não confere ou já foi usado/)
    assert.deepEqual(await failedConfirmations(bia.id), [
      { method: 'totp', during: 'confirmation' },
    ])
  })

  it('takes a recovery code and uses it up; the owner is told how many are left', async () => {
    const caio = await suite.api.person('exclui')
    const { recoveryCodes } = await turnOnAuthenticator(suite.api, caio.token, suite.clock)
    const [first] = recoveryCodes
    assert.ok(first)
    assert.equal((await askDeletion(caio.token, { code: first })).statusCode, 202)
    assert.ok((await openRequests()).includes(caio.id))
    await suite.api.deliverMail()
    const [notice] = suite.api.mail.sentWith(caio.email, CODE_USED)
    assert.match(notice!.text, /Restam 9 códigos/)
    assert.equal(errorOf(await askDeletion(caio.token, { code: first })).code, 'wrong_code')
  })

  it('one code sent twice at once: one request passes, the other is refused', async () => {
    const dora = await suite.api.person('exclui')
    const { recoveryCodes } = await turnOnAuthenticator(suite.api, dora.token, suite.clock)
    const answers = await Promise.all([
      askDeletion(dora.token, { code: recoveryCodes[0]! }),
      askDeletion(dora.token, { code: recoveryCodes[0]! }),
    ])
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [202, 400])
    assert.equal((await suite.api.events(dora.id, 'recovery_code_used')).length, 1)
    assert.equal((await suite.api.events(dora.id, 'deletion_requested')).length, 1)
  })

  it('counts a wrong code against the same limits as a wrong password', async () => {
    const eva = await suite.api.person('exclui')
    const { secret } = await turnOnAuthenticator(suite.api, eva.token, suite.clock)
    const wrong = wrongTotpCode(secret, suite.clock)
    for (let n = 0; n < 5; n++) {
      assert.equal(errorOf(await askDeletion(eva.token, { code: wrong })).code, 'wrong_code')
    }
    assert.equal((await failedConfirmations(eva.id)).length, 5)
    const waiting = await askDeletion(eva.token, { password: eva.password })
    assert.equal(waiting.statusCode, 429, waiting.body)
    assert.ok(!(await openRequests()).includes(eva.id))
  })

  it('refuses a body with both, neither, or a code that is no string', async () => {
    const gil = await suite.api.person('exclui')
    const { secret } = await turnOnAuthenticator(suite.api, gil.token, suite.clock)
    const code = totpCode(secret, suite.clock.now())
    for (const body of [{ password: gil.password, code }, {}, { code: '' }, { code: ['123456'] }]) {
      const refused = await askDeletion(gil.token, body)
      assert.equal(refused.statusCode, 400, JSON.stringify(body))
      assert.equal(errorOf(refused).code, 'invalid_input', JSON.stringify(body))
    }
    assert.ok(!(await openRequests()).includes(gil.id))
  })

  it('lets someone without a password of their own ask with the authenticator', async () => {
    const hugo = await suite.api.person('exclui')
    const { secret } = await turnOnAuthenticator(suite.api, hugo.token, suite.clock)
    await suite.api.database.db
      .updateTable('accounts')
      .set({ password_hash: '' })
      .where('id', '=', hugo.id)
      .execute()
    assert.equal(
      errorOf(await askDeletion(hugo.token, { password: hugo.password })).code,
      'wrong_password',
    )
    const asked = await askDeletion(hugo.token, { code: totpCode(secret, suite.clock.now()) })
    assert.equal(asked.statusCode, 202, asked.body)
    assert.ok((await openRequests()).includes(hugo.id))
  })
})
