import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { quotedEmails } from './quoted-emails'

const sorted = (emails: string[]) => [...emails].sort()

describe('the e-mail addresses an event’s details quote', () => {
  it('finds an address tried at sign-in, the two ends of a change and one typed into a reason', () => {
    assert.deepEqual(quotedEmails({ method: 'password', email: 'ana@x.com' }), ['ana@x.com'])
    assert.deepEqual(sorted(quotedEmails({ from: 'ana@x.com', to: 'ana.souza@y.com.br' })), [
      'ana.souza@y.com.br',
      'ana@x.com',
      'souza@y.com.br',
    ])
    assert.deepEqual(
      sorted(quotedEmails({ reason: 'Pedido de Ana (Ana@X.com), ver também «bia@x.com».' })),
      ['ana@x.com', 'bia@x.com'],
    )
    assert.deepEqual(quotedEmails({ reason: 'Escreva para ana@x.com.' }), ['ana@x.com'])
    assert.deepEqual(quotedEmails({ reason: 'mailto:ana@localhost;' }), ['ana@localhost'])
  })

  it('reads an address from after each character of its local part that is not a letter or digit', () => {
    // Punctuation in text that an address may also hold: a quote, an equals sign, braces.
    for (const quoted of ["'bia@y.com'", 'email=bia@y.com', '{bia@y.com}', '`bia@y.com`']) {
      assert.ok(quotedEmails({ reason: quoted }).includes('bia@y.com'), quoted)
    }
    assert.deepEqual(sorted(quotedEmails({ email: "o'brien@x.com" })), [
      'brien@x.com',
      "o'brien@x.com",
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

  it('ends an address at a character recorded as U+XXXX, read each way it can be', () => {
    // common/account-rules.ts, emailAsTyped: `ana@x.com` and a zero-width space after it.
    assert.deepEqual(quotedEmails({ email: 'ana@x.comU+200B' }), ['ana@x.com'])
    assert.deepEqual(quotedEmails({ email: 'anU+0430@x.com' }), [])
    // A zero-width space and BEA@X.COM, or a longer code point and A@X.COM: both are kept.
    const both = quotedEmails({ email: 'U+200BBEA@X.COM' })
    assert.ok(both.includes('bea@x.com') && both.includes('a@x.com'), both.join())
  })

  it('finds nothing where there is no address', () => {
    assert.deepEqual(quotedEmails({}), [])
    assert.deepEqual(quotedEmails({ sessions: 3, name: 'Notebook', by: 'admin', at: '@' }), [])
    assert.deepEqual(quotedEmails({ reason: 'ana@ e @x.com' }), [])
  })
})
