import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dashboardMessages } from './dashboard-messages'

const { failedSince } = dashboardMessages.dashboard
const { onBecause, offBecause } = dashboardMessages.mine

describe('Início, for someone who signs in with a provider and has no password of their own', () => {
  it('failed tries: change the password at the provider and tell an admin, never "in Minha conta"', () => {
    assert.equal(
      failedSince(1, false),
      'Houve 1 tentativa de acesso com falha na sua conta desde então. Se não foi você, troque a senha da sua conta no provedor de identidade e avise quem administra o Painel.',
    )
    assert.match(failedSince(3, false), /^Houve 3 tentativas de acesso com falha/)
    assert.doesNotMatch(failedSince(3, false), /Minha conta/)
  })

  it('the second factor: what it adds to, and what protects the account without it, is the provider', () => {
    assert.equal(onBecause(false), 'Além do provedor de identidade, entrar pede um segundo fator.')
    assert.equal(offBecause(false), 'Só a entrada no provedor de identidade protege a sua conta.')
    assert.doesNotMatch(onBecause(false), /senha/)
  })
})

describe('Início, for someone with a password', () => {
  it('speaks of the password, changed in Minha conta', () => {
    assert.equal(
      failedSince(2, true),
      'Houve 2 tentativas de acesso com falha na sua conta desde então. Se não foi você, troque a senha em Minha conta.',
    )
    assert.equal(onBecause(true), 'Além da senha, entrar pede um segundo fator.')
    assert.equal(offBecause(true), 'Só a senha protege a sua conta.')
  })
})
