import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { normalizeAccountId } from './account-id'
import { nameProblem, normalizeName } from './name-rules'
import { passwordProblem } from './password-policy'
import { isStorableText } from './text-rules'

describe('text that can be stored', () => {
  it('refuses NUL, other control characters and lone surrogates; keeps every other character', () => {
    for (const bad of [
      'a\u0000b',
      'tab\there',
      'linha\nnova',
      '\u007f',
      '\u0085',
      '\ud800',
      'x\udc00',
    ]) {
      assert.equal(isStorableText(bad), false, JSON.stringify(bad))
    }
    for (const good of ['', 'José da Silva', '😀 emoji', 'مرحبا', '\u200b']) {
      assert.equal(isStorableText(good), true, JSON.stringify(good))
    }
  })
})

describe('account ids', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
  it('takes a plain UUID in any case and gives it in lower case', () => {
    assert.equal(normalizeAccountId(id.toUpperCase()), id)
    assert.equal(normalizeAccountId(id), id)
  })
  it('refuses every other spelling', () => {
    for (const bad of [
      `urn:uuid:${id}`,
      `{${id}}`,
      id.replace(/-/g, ''),
      ` ${id}`,
      `${id}\u0000`,
      '',
    ]) {
      assert.equal(normalizeAccountId(bad), null, bad)
    }
  })
})

describe('names', () => {
  it('trims and composes (NFC)', () => {
    assert.equal(normalizeName('  Jose\u0301  '), 'José')
  })
  it('refuses bidi overrides, control characters and names with nothing visible', () => {
    for (const bad of [
      'Ana\u202eadmin',
      'Ana\u2066x',
      '\u200b\u200c\u200d',
      '   ',
      '\u3164',
      'a\u0000',
      '\u0301',
    ]) {
      assert.ok(nameProblem(bad), JSON.stringify(bad))
    }
    for (const good of ['Ana', 'João Pedro', 'محمد', '李雷', 'Zoë 👩‍💻']) {
      assert.equal(nameProblem(good), null, good)
    }
    assert.ok(nameProblem('a'.repeat(101)))
  })
})

describe('password policy', () => {
  const common = new Set(['12345678', 'senha123'])
  const isCommon = (password: string) => common.has(password.toLowerCase())
  it('8 to 128 characters, counted as people count them', () => {
    assert.equal(passwordProblem('1234567'), 'too_short')
    assert.equal(passwordProblem('😀😀😀😀😀😀😀😀'), null)
    assert.equal(passwordProblem('a'.repeat(129)), 'too_long')
  })
  it('refuses the e-mail, its local part, the name and the current password', () => {
    const context = { email: 'Ana.Souza@Example.com', name: 'Ana Souza', current: 'senha-antiga-1' }
    assert.equal(passwordProblem('ana.souza@example.com', context), 'same_as_email')
    assert.equal(passwordProblem('ana.souza', context), 'same_as_email')
    assert.equal(passwordProblem('ANA SOUZA', { name: 'Ana Souza Lima' }), null)
    assert.equal(passwordProblem('anasouzalima', { name: 'Ana Souza Lima' }), 'same_as_name')
    assert.equal(passwordProblem('senha-antiga-1', context), 'same_as_current')
  })
  it('refuses what the list of common passwords holds, when one is given', () => {
    assert.equal(passwordProblem('12345678', {}, isCommon), 'common')
    assert.equal(passwordProblem('12345678'), null)
  })
})
