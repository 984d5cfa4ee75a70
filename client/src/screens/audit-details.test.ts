import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditDetailsText } from './audit-details'

describe('auditDetailsText', () => {
  it('says a change of status or role in words', () => {
    assert.equal(auditDetailsText({ from: 'active', to: 'disabled' }), 'de Ativa para Desativada')
    assert.equal(auditDetailsText({ from: 'staff', to: 'admin' }), 'de Equipe para Administrador')
  })

  it('says how, how many and why in pt-BR', () => {
    assert.equal(auditDetailsText({ method: 'password' }), 'com senha')
    assert.equal(auditDetailsText({ sessions: 1 }), '1 sessão encerrada')
    assert.equal(auditDetailsText({ sessions: 3 }), '3 sessões encerradas')
    assert.equal(auditDetailsText({ by: 'admin' }), 'por um administrador')
    assert.equal(auditDetailsText({ reason: 'Não trabalha aqui.' }), 'motivo: Não trabalha aqui.')
    assert.equal(auditDetailsText({ role: 'admin' }), 'papel: Administrador')
    assert.equal(auditDetailsText({ email: 'a@b.c' }), 'e-mail: a@b.c')
  })

  it('keeps what it does not know, and a lone from or to, as key and value', () => {
    assert.equal(auditDetailsText({ novo: 'x', method: 'passkey' }), 'novo: x · passkey')
    assert.equal(auditDetailsText({ from: 'active' }), 'from: active')
    assert.equal(auditDetailsText({}), '')
  })
})
