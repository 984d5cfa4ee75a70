import assert from 'node:assert/strict'
import { it } from 'node:test'
import { ApiError, apiRequest, errorMessage, MFA_SETUP_EVENT } from './api-client'

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

it('a 403 mfa_setup_required is thrown as usual and told to the layout (MFA_SETUP_EVENT)', async () => {
  const told: string[] = []
  const page = new EventTarget()
  page.addEventListener(MFA_SETUP_EVENT, (event) => told.push(event.type))
  const answer = (code: string) =>
    new Response(JSON.stringify({ error: { code, message: `mensagem de ${code}` } }), {
      status: 403,
      headers: { 'content-type': 'application/json' },
    })
  const original = { window: globalThis.window, fetch: globalThis.fetch }
  // Without storage, readToken answers "no session", as in a browser that blocks it.
  Object.assign(globalThis, { window: page })
  try {
    for (const code of ['mfa_setup_required', 'forbidden']) {
      globalThis.fetch = async () => answer(code)
      await assert.rejects(apiRequest('staff'), (error: unknown) => {
        assert.ok(error instanceof ApiError)
        assert.deepEqual([error.status, error.code], [403, code])
        return true
      })
    }
  } finally {
    Object.assign(globalThis, original)
  }
  assert.deepEqual(told, [MFA_SETUP_EVENT])
})
