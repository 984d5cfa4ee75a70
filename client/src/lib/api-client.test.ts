import assert from 'node:assert/strict'
import { it } from 'node:test'
import { ApiError, errorMessage } from './api-client'

it('tells the API’s own message, and otherwise what it is given or the error itself', () => {
  const refused = new ApiError(409, 'last_admin', 'Não pode ficar sem administrador.')
  assert.equal(errorMessage(refused), 'Não pode ficar sem administrador.')
  assert.equal(errorMessage(refused, 'Outra coisa'), 'Não pode ficar sem administrador.')
  assert.equal(
    errorMessage(new TypeError('x'), 'Não foi possível carregar.'),
    'Não foi possível carregar.',
  )
  assert.equal(errorMessage(new TypeError('x')), 'TypeError: x')
})
