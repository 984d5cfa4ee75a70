import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { MyData } from '../../../../common/api/my-data'
import { NAMES_AS_LABELS } from '../../../../common/provider-labels'
import { escapeHtml } from '../../../../common/escape-html'
import { myDataLetter } from './my-data-letter'

const gil = {
  id: '0b6c2f7e-0000-4000-8000-000000000001',
  name: 'Gil <b>Gerente</b>',
  email: 'gil@example.com',
}

/** A team manager's copy, one of each thing, times in UTC as the API sends them. */
const data: MyData = {
  generatedAt: '2026-11-28T12:00:00.000Z',
  account: {
    id: gil.id,
    name: gil.name,
    email: gil.email,
    role: 'staff',
    roleName: 'Gerente de time',
    teamName: 'Time Norte',
    status: 'active',
    createdAt: '2026-01-05T13:30:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    invitationExpiresAt: null,
    newBrowserNotice: true,
  },
  sessions: [
    {
      id: 's1',
      createdAt: '2026-11-28T11:00:00.000Z',
      lastSeenAt: '2026-11-28T11:59:00.000Z',
      expiresAt: '2026-11-29T11:00:00.000Z',
      endedAt: null,
      endReason: null,
      ip: '203.0.113.9',
      browser: 'Firefox no Windows',
    },
  ],
  browsers: [{ trustedUntil: '2027-02-26T11:00:00.000Z' }],
  passkeys: [],
  secondFactor: { totp: false, totpSince: null, recoveryCodesLeft: 0 },
  providers: [],
  providerLinkInvitations: [],
  emailChanges: [],
  signInLimits: [],
  mails: [
    {
      kind: 'security_notice',
      to: gil.email,
      subject: 'Painel: seu time foi alterado',
      state: 'sent',
      createdAt: '2026-11-20T10:00:00.000Z',
      finishedAt: '2026-11-20T10:00:05.000Z',
    },
    {
      kind: 'security_notice',
      to: gil.email,
      subject: null,
      state: 'waiting',
      createdAt: '2026-11-28T11:00:00.000Z',
      finishedAt: null,
    },
  ],
  auditEvents: [
    {
      id: 'e1',
      at: '2026-11-28T11:00:00.000Z',
      type: 'sign_in',
      actor: gil,
      account: gil,
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      browser: 'Firefox no Windows',
      details: { method: 'password' },
    },
  ],
}

const letter = myDataLetter(data, { labels: NAMES_AS_LABELS, timeZone: 'America/Sao_Paulo' })
/** The letter's visible words, tags taken out and entities read, as a person sees them. */
const words = letter
  .replace(/<style>[\s\S]*?<\/style>/, '')
  .replace(/<[^>]+>/g, ' ')
  .replace(/&lt;/g, '<')
  .replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"')
  .replace(/&#39;/g, "'")
  .replace(/&amp;/g, '&')
  .replace(/\s+/g, ' ')

describe('the "Meus dados" letter', () => {
  it('names the role and the team, not "staff"', () => {
    assert.match(words, /Papel Gerente de time/)
    assert.match(words, /Time Time Norte/)
    assert.doesNotMatch(words, /\bstaff\b/)
  })

  it("writes times in the reader's zone, in pt-BR, and says which zone", () => {
    // 11:00 UTC is 08:00 in São Paulo (UTC−3).
    assert.match(words, /Começou em 28 de nov\. de 2026,? 08:00/)
    assert.match(words, /no fuso America\/Sao_Paulo \(Horário Padrão de Brasília\)/)
    assert.doesNotMatch(words, /T\d\d:\d\d:\d\d/, 'no ISO time left')
  })

  it('names browsers, mails by subject (or what they are), and events in words', () => {
    assert.match(words, /Firefox no Windows/)
    assert.match(words, /Painel: seu time foi alterado/)
    assert.match(words, /Aviso de segurança Para gil@example\.com, .*: na fila para envio/)
    assert.match(words, /Entrou .*por Gil <b>Gerente<\/b>/)
  })

  it('says why an ended session ended, and nothing for a reason it does not know', () => {
    const ended = (endReason: string | null) => ({
      ...data.sessions[0]!,
      endedAt: '2026-11-28T11:30:00.000Z',
      endReason,
    })
    const page = myDataLetter(
      { ...data, sessions: [ended('session_password_changed'), ended('some_future_reason')] },
      { labels: NAMES_AS_LABELS, timeZone: 'America/Sao_Paulo' },
    )
    assert.match(page, /Encerrada em [^<]*08:30: a senha foi trocada\./)
    assert.match(page, /Encerrada em [^<]*08:30\.</)
    assert.doesNotMatch(page, /some_future_reason|undefined/)
  })

  it('escapes what people typed, and its own policy allows no script', () => {
    assert.ok(!letter.includes('<b>Gerente</b>'))
    assert.ok(letter.includes(escapeHtml(gil.name)))
    assert.match(
      letter,
      /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/,
    )
    assert.doesNotMatch(letter, /<script/i)
  })
})
