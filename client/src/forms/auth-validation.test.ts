import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canonicalEmail, isValidEmail } from '../../../common/account-rules'
import {
  validateChangePassword,
  validateLogin,
  validateRecover,
  validateRegister,
  validateReset,
} from './auth-validation'

describe('e-mail rules', () => {
  it('accepts ordinary addresses and a dotless host', () => {
    for (const email of [
      'ana@empresa.com.br',
      'a.b+c@x.io',
      'admin@localhost',
      ' Ana@Empresa.COM ',
    ]) {
      assert.equal(isValidEmail(email), true, email)
    }
  })
  it('refuses what is not an address', () => {
    for (const email of [
      '',
      'ana',
      'ana@',
      '@x.com',
      'ana@@x.com',
      'ana@x..com',
      'ana @x.com',
      'ana@-x.com',
      `${'a'.repeat(250)}@x.com`,
    ]) {
      assert.equal(isValidEmail(email), false, email)
    }
  })
  it('gives the canonical form: no blanks around it, ASCII letters in lower case', () => {
    assert.equal(canonicalEmail('  Ana@Empresa.COM '), 'ana@empresa.com')
  })
  it('refuses an address with a character outside ASCII (server/test/lookalike-emails.ts has the rest)', () => {
    // "\u212A".toLowerCase() is "k": checked before it is lower-cased, it is no address.
    assert.equal(canonicalEmail('\u212Aate@corp.test'), null)
    assert.equal(isValidEmail('jos\u00e9@empresa.com.br'), false)
  })
})

describe('validateLogin', () => {
  it('asks for both fields', () => {
    assert.deepEqual(validateLogin({ email: '', password: '' }), {
      email: 'Informe o e-mail.',
      password: 'Informe a senha.',
    })
  })
  it('checks the e-mail format but not the password length', () => {
    assert.deepEqual(validateLogin({ email: 'ana', password: 'x' }), {
      email: 'Informe um e-mail válido, como nome@empresa.com.br.',
    })
    assert.deepEqual(validateLogin({ email: 'ana@x.com', password: 'x' }), {})
  })
})

describe('validateRecover', () => {
  it('wants a valid e-mail', () => {
    assert.deepEqual(validateRecover({ email: ' ' }), { email: 'Informe o e-mail.' })
    assert.deepEqual(validateRecover({ email: 'ana@x.com' }), {})
  })
})

describe('validateRegister', () => {
  const valid = {
    name: 'Ana',
    email: 'ana@x.com',
    password: 'segredo123',
    confirmPassword: 'segredo123',
  }

  it('accepts a complete form', () => {
    assert.deepEqual(validateRegister(valid), {})
  })
  it('reports every problem at once', () => {
    assert.deepEqual(
      validateRegister({ name: ' ', email: 'x', password: 'curta', confirmPassword: '' }),
      {
        name: 'Informe seu nome.',
        email: 'Informe um e-mail válido, como nome@empresa.com.br.',
        password: 'A senha deve ter pelo menos 8 caracteres.',
        confirmPassword: 'Confirme a senha.',
      },
    )
  })
  it('bounds the password length in characters', () => {
    assert.equal(
      validateRegister({ ...valid, password: 'a'.repeat(129), confirmPassword: 'a'.repeat(129) })
        .password,
      'A senha deve ter no máximo 128 caracteres.',
    )
    assert.equal(
      validateRegister({ ...valid, password: '🔑'.repeat(8), confirmPassword: '🔑'.repeat(8) })
        .password,
      undefined,
    )
    assert.equal(
      validateRegister({ ...valid, password: '🔑'.repeat(7), confirmPassword: '🔑'.repeat(7) })
        .password,
      'A senha deve ter pelo menos 8 caracteres.',
    )
  })
  it('wants the passwords to match', () => {
    assert.equal(
      validateRegister({ ...valid, confirmPassword: 'segredo124' }).confirmPassword,
      'As senhas não conferem.',
    )
  })
  it('bounds the name', () => {
    assert.equal(
      validateRegister({ ...valid, name: 'a'.repeat(101) }).name,
      'O nome deve ter no máximo 100 caracteres.',
    )
  })
})

describe('validateReset', () => {
  it('checks the new password and its confirmation', () => {
    assert.deepEqual(validateReset({ password: 'segredo123', confirmPassword: 'segredo123' }), {})
    assert.deepEqual(validateReset({ password: '', confirmPassword: 'x' }), {
      password: 'Informe a senha.',
      confirmPassword: 'As senhas não conferem.',
    })
  })
})

describe('validateChangePassword', () => {
  it('wants the current password and a valid, confirmed new one', () => {
    assert.deepEqual(
      validateChangePassword({
        currentPassword: 'x',
        password: 'segredo123',
        confirmPassword: 'segredo123',
      }),
      {},
    )
    assert.deepEqual(
      validateChangePassword({ currentPassword: '', password: 'curta', confirmPassword: 'curta' }),
      {
        currentPassword: 'Informe a senha.',
        password: 'A senha deve ter pelo menos 8 caracteres.',
      },
    )
  })
})
