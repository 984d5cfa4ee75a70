import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { inviteProblems } from './invite-validation'

describe('the invite dialog’s checks', () => {
  it('names both missing fields in pt-BR, the name as someone else’s', () => {
    assert.deepEqual(inviteProblems('', ''), {
      name: 'Informe o nome.',
      email: 'Informe o e-mail.',
    })
    assert.deepEqual(inviteProblems('  \u200b ', '   '), {
      name: 'Informe o nome.',
      email: 'Informe o e-mail.',
    })
  })

  it('says what is wrong with a name or an address that was typed', () => {
    assert.deepEqual(inviteProblems('a'.repeat(101), 'ana@'), {
      name: 'O nome deve ter no máximo 100 caracteres.',
      email: 'Informe um e-mail válido, como nome@empresa.com.br.',
    })
    assert.deepEqual(inviteProblems('Ana\u202eBia', 'ana@empresa.com.br'), {
      name: 'O nome contém caracteres não permitidos.',
    })
  })

  it('passes a good name and address', () => {
    assert.deepEqual(inviteProblems(' Ana Souza ', ' ana@empresa.com.br '), {})
  })
})
