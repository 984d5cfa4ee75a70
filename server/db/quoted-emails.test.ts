import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { quotedEmails } from './quoted-emails'

describe('the e-mail addresses an event’s details quote', () => {
  it('finds an address tried at sign-in, the two ends of a change and one typed into a reason', () => {
    assert.deepEqual(quotedEmails({ method: 'password', email: 'ana@x.com' }), ['ana@x.com'])
    assert.deepEqual(quotedEmails({ from: 'ana@x.com', to: 'ana.souza@y.com.br' }), [
      'ana@x.com',
      'ana.souza@y.com.br',
    ])
    assert.deepEqual(
      quotedEmails({ reason: 'Pedido de Ana (Ana@X.com), ver também «bia+rh@x.com».' }),
      ['ana@x.com', 'bia+rh@x.com'],
    )
    assert.deepEqual(quotedEmails({ reason: 'Escreva para ana@x.com.' }), ['ana@x.com'])
    assert.deepEqual(quotedEmails({ reason: "mailto:o'brien@x.com, ana@localhost;" }), [
      "o'brien@x.com",
      'ana@localhost',
    ])
  })

  it('lower-cases and counts each address once', () => {
    assert.deepEqual(quotedEmails({ from: 'ANA@X.COM', to: 'ana@x.com bia@x.com', n: 1 }), [
      'ana@x.com',
      'bia@x.com',
    ])
  })

  it('finds an address whole, not inside a longer one', () => {
    assert.deepEqual(quotedEmails({ email: 'joana@x.com' }), ['joana@x.com'])
    assert.deepEqual(quotedEmails({ email: 'ana@x.com.br' }), ['ana@x.com.br'])
  })

  it('ends an address at a character recorded as U+XXXX (an attempt with an invisible one)', () => {
    // common/account-rules.ts, emailAsTyped: `ana@x.com` and a zero-width space after it.
    assert.deepEqual(quotedEmails({ email: 'ana@x.comU+200B' }), ['ana@x.com'])
    assert.deepEqual(quotedEmails({ email: 'anU+0430@x.com' }), [])
  })

  it('finds nothing where there is no address', () => {
    assert.deepEqual(quotedEmails({}), [])
    assert.deepEqual(quotedEmails({ sessions: 3, name: 'Notebook', by: 'admin', at: '@' }), [])
    assert.deepEqual(quotedEmails({ reason: 'ana@ e @x.com' }), [])
  })
})
