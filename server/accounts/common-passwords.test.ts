import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { commonPasswordCount, isCommonPassword } from './common-passwords'

describe('the list of common and breached passwords', () => {
  it('holds at least 100,000 entries, read from installed packages', () => {
    assert.ok(commonPasswordCount() >= 100_000, String(commonPasswordCount()))
  })
  it('has the commonest ones, Portuguese ones too, in any case and with digits after', () => {
    for (const password of [
      '12345678',
      'senha123',
      'Senha@123',
      'password1',
      'flamengo',
      'Palmeiras2024',
      'mudar123',
      'iloveyou',
    ]) {
      assert.equal(isCommonPassword(password), true, password)
    }
  })
  it('lets a passphrase or a random password through', () => {
    for (const password of ['vaca amarela pula alto', 'cavalo-correto-bateria', 'q8#Lr2!vTz0p']) {
      assert.equal(isCommonPassword(password), false, password)
    }
  })
})
