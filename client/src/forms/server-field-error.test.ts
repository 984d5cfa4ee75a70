import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { INVALID_EMAIL_MESSAGE } from '../../../common/account-rules'
import { NAME_PROBLEM_MESSAGES, nameProblem } from '../../../common/name-rules'
import { PASSWORD_PROBLEM_MESSAGES, passwordProblem } from '../../../common/password-policy'
import { fieldKindOf } from './server-field-error'

describe('which field a server refusal is about', () => {
  it('every password rule, the common-password one included, is the password’s', () => {
    for (const message of Object.values(PASSWORD_PROBLEM_MESSAGES)) {
      assert.equal(fieldKindOf('invalid_input', message), 'password', message)
    }
    // What the server would answer, from the same rules.
    const common = passwordProblem('senha123', {}, () => true)
    assert.equal(common, 'common')
    assert.equal(fieldKindOf('invalid_input', PASSWORD_PROBLEM_MESSAGES[common]), 'password')
  })

  it('every name rule is the name’s', () => {
    for (const message of Object.values(NAME_PROBLEM_MESSAGES)) {
      assert.equal(fieldKindOf('invalid_input', message), 'name', message)
    }
    for (const raw of ['   ', 'a'.repeat(101), 'Ana\u202eBia']) {
      const problem = nameProblem(raw)
      assert.ok(problem, raw)
      assert.equal(fieldKindOf('invalid_input', problem), 'name', raw)
    }
  })

  it('an address refused, or taken, is the e-mail’s', () => {
    assert.equal(fieldKindOf('invalid_input', INVALID_EMAIL_MESSAGE), 'email')
    assert.equal(fieldKindOf('invalid_email', 'qualquer texto'), 'email')
    assert.equal(fieldKindOf('email_taken', 'Já existe uma conta com este e-mail.'), 'email')
  })

  it('anything else belongs to the whole form', () => {
    for (const [code, message] of [
      ['invalid_input', 'Dados inválidos: falta o campo password.'],
      ['invalid_input', ''],
      ['too_many_attempts', PASSWORD_PROBLEM_MESSAGES.common],
      ['invalid_or_expired_token', 'Este link de redefinição é inválido.'],
      ['internal_error', NAME_PROBLEM_MESSAGES.missing],
      ['unexpected', INVALID_EMAIL_MESSAGE],
    ] as const) {
      assert.equal(fieldKindOf(code, message), undefined, `${code}: ${message}`)
    }
  })
})
