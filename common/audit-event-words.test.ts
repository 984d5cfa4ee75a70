import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AuditEvent } from './api/audit'
import { auditEventWords } from './audit-event-words'
import { providerLabels } from './provider-labels'

const labels = providerLabels([{ name: 'idt', buttonText: 'Entrar com Conta Corporativa' }])

const event = (fields: Partial<AuditEvent>): AuditEvent => ({
  id: '0192f1a0-0000-7000-8000-000000000000',
  at: '2026-11-25T17:03:41.000Z',
  type: 'sign_in_failed',
  actor: null,
  account: null,
  ip: '203.0.113.9',
  userAgent: null,
  browser: null,
  details: {},
  ...fields,
})

describe('auditEventWords', () => {
  it('says who tried a sign-in that named no account: "Alguém", not "Sistema"', () => {
    const words = auditEventWords(
      event({ details: { method: 'provider', provider: 'idt', reason: 'cancelled' } }),
      labels,
    )
    assert.equal(words.who, 'Alguém')
    assert.equal(words.what, 'Falha ao entrar')
    assert.equal(words.details, 'pelo provedor «Conta Corporativa», cancelada no provedor')
  })

  it('keeps "Sistema" for what the panel did itself, and a person by name, else e-mail', () => {
    assert.equal(auditEventWords(event({ type: 'notice_sent' }), labels).who, 'Sistema')
    const party = { id: '0192f1a0-0000-7000-8000-000000000001', name: '', email: 'ana@example.com' }
    assert.equal(
      auditEventWords(event({ type: 'sign_in', actor: party }), labels).who,
      'ana@example.com',
    )
  })

  it('gives the browser as the server named it, nothing when none was recorded', () => {
    assert.equal(
      auditEventWords(event({ browser: 'Chrome no Linux' }), labels).browser,
      'Chrome no Linux',
    )
    assert.equal(auditEventWords(event({}), labels).browser, '')
  })
})
