import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  canConfirm,
  confirmationBody,
  confirmationProblem,
  confirmsWithCode,
  validateConfirmation,
} from './own-confirmation'

const both = { password: true, authenticator: true }
const passwordOnly = { password: true, authenticator: false }
const appOnly = { password: false, authenticator: true }
const neither = { password: false, authenticator: false }

describe('own confirmation (Minha conta: the password or a code of the app)', () => {
  it('asks for the code only with the app: always without a password, by choice with both', () => {
    assert.equal(confirmsWithCode(appOnly, 'password'), true)
    assert.equal(confirmsWithCode(both, 'password'), false)
    assert.equal(confirmsWithCode(both, 'code'), true)
    // A choice of the code made while the app was on falls back once it is off.
    assert.equal(confirmsWithCode(passwordOnly, 'code'), false)
    assert.deepEqual([both, passwordOnly, appOnly, neither].map(canConfirm), [
      true,
      true,
      true,
      false,
    ])
  })

  it('sends exactly one of the two; an app code without its spaces, a recovery code as typed', () => {
    assert.deepEqual(confirmationBody(false, ' senha com espaços ', '123456'), {
      password: ' senha com espaços ',
    })
    assert.deepEqual(confirmationBody(true, 'senha', ' 123 456 '), { code: '123456' })
    assert.deepEqual(confirmationBody(true, '', ' abcd-efgh-jkmn-pqrs '), {
      code: 'abcd-efgh-jkmn-pqrs',
    })
  })

  it('complains about an empty field, and digits that are not six; a recovery code is the server’s', () => {
    assert.equal(confirmationProblem(false, '', ''), 'Informe sua senha atual.')
    assert.equal(confirmationProblem(false, 'x', ''), undefined)
    assert.equal(confirmationProblem(true, '', '  '), 'Informe o código.')
    assert.equal(confirmationProblem(true, '', '12345'), 'O código do aplicativo tem 6 dígitos.')
    assert.equal(confirmationProblem(true, '', '1234567'), 'O código do aplicativo tem 6 dígitos.')
    assert.equal(confirmationProblem(true, '', '123 456'), undefined)
    assert.equal(confirmationProblem(true, '', 'abcd-efgh'), undefined)
  })

  it('puts the complaint on the field shown', () => {
    const fields = { password: 'senha', code: 'codigo' } as const
    assert.deepEqual(
      validateConfirmation({ usingCode: true }, fields, { senha: 'x', codigo: '' }),
      { codigo: 'Informe o código.' },
    )
    assert.deepEqual(
      validateConfirmation({ usingCode: false }, fields, { senha: '', codigo: '123456' }),
      { senha: 'Informe sua senha atual.' },
    )
    assert.deepEqual(
      validateConfirmation({ usingCode: false }, fields, { senha: 'x', codigo: '' }),
      {},
    )
  })
})
