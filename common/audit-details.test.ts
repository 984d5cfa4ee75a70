import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { AUDIT_TYPES, type AuditDetails, type AuditType } from './api/audit'
import { AUDIT_DETAIL_KEYS, UNSPOKEN_DETAIL_KEYS, auditDetailsText } from './audit-details'
import { NAMES_AS_LABELS, providerLabels } from './provider-labels'

const PASSKEY_ID = '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d'

/** The words with providers said by their names, as the samples' checks expect. */
const say = (type: AuditType, details: AuditDetails) =>
  auditDetailsText(type, details, NAMES_AS_LABELS)

/**
 * Details as the server records them, for every type (a Record: a new type does not compile
 * without its samples). Several samples where one type is recorded in several ways.
 */
const SAMPLES: Record<AuditType, AuditDetails[]> = {
  sign_in: [
    { method: 'password' },
    { method: 'totp' },
    { method: 'recovery_code' },
    { method: 'passkey' },
    { method: 'provider', provider: 'corp', provider_mfa: true },
    { method: 'provider', provider: 'corp', provider_mfa: false },
    { method: 'password', new_browser: true },
    { method: 'password', new_browser: true, notice: true },
  ],
  sign_in_failed: [
    {},
    { email: 'ninguem@example.com' },
    { method: 'password', during: 'confirmation' },
    { method: 'totp', during: 'confirmation' },
    { method: 'totp' },
    { method: 'recovery_code' },
    { method: 'passkey' },
    { method: 'provider', provider: 'corp', reason: 'domain_not_allowed' },
    { method: 'provider', provider: 'corp', reason: 'linked_elsewhere' },
    { method: 'provider', provider: 'govbr', reason: 'link_required' },
  ],
  locked: [{}, { notice: true }],
  unlocked: [{}],
  signed_out: [{}],
  session_ended: [
    { sessions: 1, by: 'owner', which: 'one' },
    { sessions: 1, by: 'owner', which: 'others' },
    { sessions: 3, by: 'owner', which: 'others' },
    { sessions: 2, by: 'admin' },
  ],
  password_changed: [{}],
  reset_requested: [{}, { by: 'admin' }],
  password_reset: [{}],
  registered: [{}, { via: 'corp' }],
  approved: [{ from: 'pending', to: 'active' }],
  refused: [{}, { reason: 'Não trabalha aqui.' }],
  disabled: [{ from: 'active', to: 'disabled' }],
  reenabled: [{ from: 'disabled', to: 'active' }],
  role_changed: [
    { from: 'staff', to: 'admin' },
    { from: 'admin', to: 'staff' },
    { from: 'staff', to: 'admin', provider: 'corp' },
    { from: 'staff', to: 'staff', from_role: 'Equipe', to_role: 'Gestor de equipe' },
    { from: 'staff', to: 'admin', notice: true },
  ],
  invited: [
    { role: 'staff' },
    { role: 'admin' },
    { role: 'staff', role_name: 'Suporte', team: 'Vendas' },
  ],
  mfa_enabled: [{ method: 'totp' }, { method: 'totp', notice: true }],
  mfa_disabled: [
    { method: 'totp', by: 'owner' },
    { by: 'admin', totp: true, passkeys: 2 },
    { by: 'admin', totp: false, passkeys: 1 },
    { by: 'admin', totp: true, passkeys: 0 },
    { by: 'admin', totp: true, passkeys: 0, notice: true },
  ],
  passkey_added: [
    { passkey: PASSKEY_ID, name: 'Notebook' },
    { passkey: PASSKEY_ID, name: 'Notebook', notice: true },
  ],
  passkey_removed: [
    { passkey: PASSKEY_ID, name: 'Notebook', by: 'owner' },
    { passkey: PASSKEY_ID, name: 'Notebook', by: 'owner', notice: true },
  ],
  recovery_code_used: [
    { left: 9 },
    { left: 1 },
    { left: 0 },
    { left: 8, during: 'confirmation' },
    { left: 7, notice: true },
  ],
  recovery_codes_regenerated: [{}, { notice: true }],
  passkey_renamed: [{ passkey: PASSKEY_ID, from: 'Notebook', name: 'Notebook do trabalho' }],
  invitation_resent: [{}],
  name_changed: [{ from: 'Ana Sousa', to: 'Ana Souza' }],
  provider_linked: [
    { provider: 'corp', by: 'verified_email' },
    { provider: 'corp', by: 'new_account' },
    { provider: 'corp', by: 'admin_link' },
    { provider: 'corp', by: 'password', notice: true },
  ],
  provider_unlinked: [
    { provider: 'corp', by: 'owner' },
    { provider: 'corp', by: 'owner', notice: true },
  ],
  provider_link_invited: [{ provider: 'corp' }],
  team_changed: [
    { from: null, to: 'Vendas' },
    { from: 'Vendas', to: 'Suporte' },
    { from: 'Vendas', to: 'Suporte', provider: 'corp' },
    { from: 'Vendas', to: 'Suporte', notice: true },
  ],
  role_created: [
    { name: 'Auditoria', permissions: 'audit.view,audit.export', scope: 'all' },
    { name: 'Vazio', permissions: '', scope: 'team' },
  ],
  role_updated: [
    { from_name: 'Suporte', name: 'Suporte N1', added: 'staff.unlock', removed: 'staff.reset' },
    { name: 'Gestor', from_scope: 'all', scope: 'team' },
  ],
  role_deleted: [{ name: 'Suporte', permissions: 'staff.unlock,staff.reset', scope: 'all' }],
  team_created: [{ name: 'Vendas', open: true }],
  team_updated: [
    { from_name: 'Vendas', name: 'Vendas Sul', from_open: false, open: true },
    { name: 'Vendas', from_open: true, open: false },
  ],
  team_deletion_started: [{ name: 'Vendas', members: 250 }],
  team_deleted: [{ name: 'Vendas', members: 3 }],
  notice_sent: [
    { notice: 'new_browser' },
    { notice: 'recovery_code_used' },
    { notice: 'email_change_requested' },
  ],
  notices_changed: [{ new_browser: true }, { new_browser: false }],
  email_change_requested: [{ by: 'owner' }, { by: 'admin' }, { by: 'owner', notice: true }],
  email_changed: [{ from: 'ana@example.com', to: 'ana.souza@example.com' }],
  email_change_cancelled: [{}],
  data_exported: [{}],
  deletion_requested: [{}],
  deletion_refused: [{ reason: 'Há um processo em andamento.' }],
  anonymised: [{ events: 12 }, { events: 1 }],
  provisioned: [{}],
  deprovisioned: [{}],
  scim_token_created: [{ name: 'Entra ID' }],
  scim_token_revoked: [{ name: 'Entra ID' }],
}

/** A provider's name as AUTH_PROVIDERS spells it: what the operator called it, said quoted. */
const NAMES_SAID_AS_THEY_ARE = new Set(['provider', 'via'])

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i

describe('auditDetailsText', () => {
  for (const type of AUDIT_TYPES) {
    it(`${type}: pt-BR words, never a key, a code or an id`, () => {
      for (const details of SAMPLES[type]) {
        const said = say(type, details)
        const seen = `${type} ${JSON.stringify(details)} → "${said}"`
        assert.doesNotMatch(said, /\w+\s*:/, seen)
        assert.doesNotMatch(said, /\b[a-z]+_[a-z_]+\b/, seen)
        assert.doesNotMatch(said, UUID, seen)
        for (const [key, value] of Object.entries(details)) {
          // A code as it is stored (owner, totp, one) is not a word of the sentence.
          if (NAMES_SAID_AS_THEY_ARE.has(key)) {
            assert.match(said, new RegExp(`«${String(value)}»`), seen)
          } else if (typeof value === 'string' && /^[a-z_]+$/.test(value)) {
            assert.doesNotMatch(said, new RegExp(`\\b${value}\\b`), seen)
          }
        }
        for (const key of Object.keys(details)) {
          assert.ok(AUDIT_DETAIL_KEYS[type].includes(key), `${type} is not known to have ${key}`)
        }
      }
    })

    it(`${type}: every key it is recorded with is said (ids aside)`, () => {
      const sampled = new Set(SAMPLES[type].flatMap((details) => Object.keys(details)))
      assert.deepEqual([...sampled].sort(), [...AUDIT_DETAIL_KEYS[type]].sort())
      for (const key of AUDIT_DETAIL_KEYS[type]) {
        if (UNSPOKEN_DETAIL_KEYS.has(key)) continue
        const matters = SAMPLES[type].some((details) => {
          if (!(key in details)) return false
          const without = Object.fromEntries(Object.entries(details).filter(([k]) => k !== key))
          return say(type, details) !== say(type, without)
        })
        assert.ok(matters, `${type}: ${key} changes nothing in the words`)
      }
    })
  }

  it('says the cases of the trial in full', () => {
    assert.equal(
      say('session_ended', { sessions: 1, by: 'owner', which: 'one' }),
      'encerrou 1 das próprias sessões',
    )
    assert.equal(
      say('session_ended', { sessions: 3, by: 'owner', which: 'others' }),
      'encerrou as outras 3 sessões abertas',
    )
    assert.equal(
      say('session_ended', { sessions: 2, by: 'admin' }),
      '2 sessões encerradas por um administrador',
    )
    assert.equal(say('sign_in', { method: 'totp' }), 'com o aplicativo autenticador')
    assert.equal(say('sign_in', { method: 'recovery_code' }), 'com um código de recuperação')
    assert.equal(say('recovery_code_used', { left: 9 }), 'restam 9 códigos de recuperação')
    assert.equal(
      say('recovery_code_used', { left: 1, during: 'confirmation' }),
      'para confirmar uma alteração na própria conta, resta 1 código de recuperação',
    )
    assert.equal(
      say('passkey_added', { passkey: PASSKEY_ID, name: 'Notebook' }),
      'chave de acesso «Notebook»',
    )
    assert.equal(
      say('sign_in_failed', { method: 'password', during: 'confirmation' }),
      'com senha, ao confirmar a senha antes de uma alteração na própria conta',
    )
    assert.equal(
      say('sign_in_failed', { method: 'totp', during: 'confirmation' }),
      'com o aplicativo autenticador, ao confirmar com um código uma alteração na própria conta',
    )
    assert.equal(say('disabled', { from: 'active', to: 'disabled' }), 'de Ativa para Desativada')
    assert.equal(
      say('mfa_disabled', { by: 'admin', totp: true, passkeys: 2 }),
      'um administrador removeu o aplicativo autenticador, os códigos de recuperação e 2 chaves de acesso',
    )
  })

  it('names a provider by its label, after the word "provedor" whatever the label', () => {
    const labels = providerLabels([
      { name: 'idt', buttonText: 'Entrar com Conta Corporativa' },
      { name: 'google', buttonText: 'Entrar com Google' },
    ])
    const cases: [AuditType, AuditDetails, string][] = [
      [
        'sign_in_failed',
        { method: 'provider', provider: 'idt', reason: 'cancelled' },
        'pelo provedor «Conta Corporativa», cancelada no provedor',
      ],
      ['sign_in', { method: 'provider', provider: 'google' }, 'pelo provedor «Google»'],
      ['registered', { via: 'idt' }, 'pelo provedor «Conta Corporativa»'],
      [
        'provider_linked',
        { provider: 'idt', by: 'verified_email' },
        'pelo provedor «Conta Corporativa», pelo e-mail confirmado pelo provedor',
      ],
      ['provider_link_invited', { provider: 'idt' }, 'para o provedor «Conta Corporativa»'],
      // A provider removed from the configuration since: its name is all there is.
      [
        'provider_unlinked',
        { provider: 'antigo', by: 'owner' },
        'pelo provedor «antigo», pela própria pessoa',
      ],
    ]
    for (const [type, details, words] of cases) {
      const said = auditDetailsText(type, details, labels)
      assert.equal(said, words)
      assert.doesNotMatch(said, /«idt»/)
    }
  })

  it('folds the security notice into the event that caused it', () => {
    assert.equal(
      say('sign_in', { method: 'password', new_browser: true, notice: true }),
      'com senha, de um navegador novo para a conta, aviso enviado por e-mail',
    )
    assert.equal(say('locked', { notice: true }), 'aviso enviado por e-mail')
    // An old event of its own still reads.
    assert.equal(
      say('notice_sent', { notice: 'new_browser' }),
      'sobre uma entrada de um navegador novo',
    )
  })

  it('says no change where both ends are equal (an event anonymised before the fix)', () => {
    const pseudonym = 'Pessoa anonimizada 4ae7c1d2'
    assert.equal(say('name_changed', { from: pseudonym, to: pseudonym }), '')
    assert.equal(say('name_changed', { from: 'Ana', to: 'Ana Maria' }), 'de «Ana» para «Ana Maria»')
    const email = '4ae7c1d2@anonimizado.invalid'
    assert.equal(say('email_changed', { from: email, to: email }), '')
    assert.equal(say('passkey_renamed', { from: 'Notebook', name: 'Notebook' }), '')
    assert.equal(say('team_changed', { from: 'Vendas', to: 'Vendas' }), '')
  })

  it('leaves out what it does not know instead of showing it raw', () => {
    assert.equal(say('sign_in', { method: 'smartcard', novo: 'x' }), '')
    assert.equal(say('disabled', { from: 'active' }), '')
    assert.equal(say('locked', { which: 'one' }), '')
  })
})
