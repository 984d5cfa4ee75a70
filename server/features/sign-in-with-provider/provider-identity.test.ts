import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { testProviderSettings } from '../../test/oidc-test-provider'
import { maskCpf, shownSubject } from './cpf-mask'
import { emailDomain, isAllowedDomain } from './email-domain'
import { claimAt, identityFromClaims } from './provider-identity'

const provider = testProviderSettings

const base = { iss: 'https://sso.corp.example', sub: 'abc', aud: 'painel' }

describe('identityFromClaims', () => {
  it('reads issuer, subject, a normalised e-mail, its verification and the name', () => {
    const identity = identityFromClaims(provider(), {
      ...base,
      email: ' Ana@Example.COM ',
      email_verified: true,
      name: ' Ana Souza ',
    })
    assert.deepEqual(identity, {
      provider: 'corp',
      issuer: 'https://sso.corp.example',
      subject: 'abc',
      email: 'ana@example.com',
      emailVerified: true,
      name: 'Ana Souza',
      amr: [],
      acr: null,
      multiFactor: false,
      adminValues: [],
      roleName: null,
      teamName: null,
    })
  })

  it('an e-mail is verified only when the provider says so with true', () => {
    for (const [value, verified] of [
      [true, true],
      ['true', true],
      [false, false],
      ['false', false],
      [undefined, false],
      ['yes', false],
    ] as const) {
      const identity = identityFromClaims(provider(), {
        ...base,
        email: 'ana@example.com',
        email_verified: value,
      })
      assert.equal(identity.emailVerified, verified, String(value))
    }
    const noEmail = identityFromClaims(provider(), { ...base, email_verified: true })
    assert.equal(noEmail.email, null)
    assert.equal(noEmail.emailVerified, false)
    const notAnAddress = identityFromClaims(provider(), {
      ...base,
      email: 'ana',
      email_verified: true,
    })
    assert.equal(notAnAddress.email, null)
  })

  it("Entra: email_verified is not Entra's; only xms_edov vouches for the e-mail (nOAuth)", () => {
    const entra = provider({ preset: 'entra' })
    const claims = { ...base, email: 'ceo@victim.example', email_verified: true }
    assert.equal(identityFromClaims(entra, claims).emailVerified, false)
    assert.equal(identityFromClaims(entra, { ...claims, xms_edov: false }).emailVerified, false)
    assert.equal(identityFromClaims(entra, { ...claims, xms_edov: true }).emailVerified, true)
    assert.equal(identityFromClaims(entra, { ...claims, xms_edov: '1' }).emailVerified, true)
  })

  it('ADMIN_CLAIM: only the listed values count, from a list, a string or a nested path', () => {
    const groups = provider({ adminClaim: 'groups', adminValues: ['painel-admins'] })
    assert.deepEqual(
      identityFromClaims(groups, { ...base, groups: ['staff', 'painel-admins', 'painel-admins'] })
        .adminValues,
      ['painel-admins'],
    )
    assert.deepEqual(identityFromClaims(groups, { ...base, groups: 'painel-admins' }).adminValues, [
      'painel-admins',
    ])
    assert.deepEqual(identityFromClaims(groups, { ...base, groups: ['staff'] }).adminValues, [])
    assert.deepEqual(identityFromClaims(groups, { ...base, groups: { x: 1 } }).adminValues, [])
    assert.deepEqual(identityFromClaims(groups, base).adminValues, [])
    const keycloak = provider({ adminClaim: 'realm_access.roles', adminValues: ['admin'] })
    assert.deepEqual(
      identityFromClaims(keycloak, { ...base, realm_access: { roles: ['admin', 'user'] } })
        .adminValues,
      ['admin'],
    )
    assert.equal(
      claimAt({ 'https://x.example/roles': ['a'] }, 'https://x.example/roles') !== undefined,
      true,
    )
    assert.equal(claimAt({ a: null }, 'a.b'), undefined)
    assert.equal(claimAt({ a: { b: 1 } }, 'a.constructor'), undefined, 'own properties only')
  })

  it("ROLE_MAP and TEAM_MAP: the map's first pair that the claim holds, whatever the claim's order", () => {
    const mapped = provider({
      roleClaim: 'groups',
      roleMap: [
        { value: 'painel-gestores', name: 'Gestor de equipe' },
        { value: 'painel-audit', name: 'Auditoria' },
      ],
      teamClaim: 'realm_access.teams',
      teamMap: [{ value: 'vendas', name: 'Vendas' }],
    })
    const both = identityFromClaims(mapped, {
      ...base,
      groups: ['outros', 'painel-audit', 'painel-gestores'],
      realm_access: { teams: 'vendas' },
    })
    assert.equal(both.roleName, 'Gestor de equipe')
    assert.equal(both.teamName, 'Vendas')
    const audit = identityFromClaims(mapped, { ...base, groups: ['painel-audit'] })
    assert.equal(audit.roleName, 'Auditoria')
    assert.equal(audit.teamName, null, 'an absent claim maps to nothing')
    assert.equal(identityFromClaims(mapped, { ...base, groups: ['outros'] }).roleName, null)
    assert.equal(identityFromClaims(mapped, { ...base, groups: { a: 1 } }).roleName, null)
    assert.equal(
      identityFromClaims(provider(), { ...base, groups: ['painel-audit'] }).roleName,
      null,
      'no ROLE_CLAIM: nothing mapped',
    )
  })

  it('multi-factor from amr (RFC 8176) or a PAPE acr; gov.br has its own values', () => {
    const generic = provider()
    assert.equal(identityFromClaims(generic, { ...base, amr: ['pwd'] }).multiFactor, false)
    assert.equal(identityFromClaims(generic, { ...base, amr: ['pwd', 'mfa'] }).multiFactor, true)
    assert.equal(identityFromClaims(generic, { ...base, amr: ['hwk'] }).multiFactor, true)
    assert.equal(identityFromClaims(generic, { ...base, amr: 'mfa' }).multiFactor, true)
    assert.equal(
      identityFromClaims(generic, {
        ...base,
        acr: 'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
      }).multiFactor,
      true,
    )
    assert.equal(identityFromClaims(generic, { ...base, acr: '1' }).multiFactor, false)
    const govbr = provider({ preset: 'govbr' })
    assert.equal(identityFromClaims(govbr, { ...base, amr: ['passwd'] }).multiFactor, false)
    assert.equal(identityFromClaims(govbr, { ...base, amr: ['x509'] }).multiFactor, true)
  })

  it('a name Equipe could not show is dropped (the person gets the e-mail instead)', () => {
    assert.equal(identityFromClaims(provider(), { ...base, name: 'a\u202eb' }).name, null)
    assert.equal(identityFromClaims(provider(), { ...base, name: '   ' }).name, null)
    assert.equal(identityFromClaims(provider(), { ...base, name: 42 }).name, null)
  })
})

describe('identityFromClaims with UserInfo (OpenID Connect Core §5.4)', () => {
  const roles = {
    adminClaim: 'groups',
    adminValues: ['painel-admin'],
    teamClaim: 'groups',
    teamMap: [{ value: 'time-vendas', name: 'Vendas' }],
  }

  it('a thin ID token: the e-mail, its vouching, the name and the groups come from UserInfo', () => {
    const identity = identityFromClaims(provider(roles), base, {
      sub: 'abc',
      email: 'Ana@Example.com',
      email_verified: true,
      name: 'Ana Souza',
      groups: ['painel-admin', 'time-vendas'],
    })
    assert.equal(identity.email, 'ana@example.com')
    assert.equal(identity.emailVerified, true)
    assert.equal(identity.name, 'Ana Souza')
    assert.deepEqual(identity.adminValues, ['painel-admin'])
    assert.equal(identity.teamName, 'Vendas')
  })

  it('the ID token wins for every claim it carries; UserInfo only fills in', () => {
    const identity = identityFromClaims(
      provider(roles),
      { ...base, name: 'Nome do Token', groups: ['outros'] },
      { sub: 'abc', name: 'Nome da UserInfo', groups: ['painel-admin'], email: 'a@example.com' },
    )
    assert.equal(identity.name, 'Nome do Token')
    assert.deepEqual(identity.adminValues, [])
  })

  it('the e-mail and its vouching come from one source, never one from each', () => {
    // The token names an address without vouching for it; UserInfo vouches (for its own).
    const mixed = identityFromClaims(
      provider(),
      { ...base, email: 'ana@example.com' },
      { sub: 'abc', email: 'ana@example.com', email_verified: true },
    )
    assert.equal(mixed.email, 'ana@example.com')
    assert.equal(mixed.emailVerified, false)
    // UserInfo's vouching never lends itself to the token's other address.
    const other = identityFromClaims(
      provider(),
      { ...base, email: 'carl@evil.test' },
      { sub: 'abc', email: 'ana@example.com', email_verified: true },
    )
    assert.deepEqual([other.email, other.emailVerified], ['carl@evil.test', false])
  })

  it("the protocol's claims are the token's alone: UserInfo cannot add a factor or another subject", () => {
    const identity = identityFromClaims(provider(), base, {
      sub: 'abc',
      iss: 'https://evil.test',
      amr: ['mfa'],
      acr: 'http://schemas.openid.net/pape/policies/2007/06/multi-factor',
    })
    assert.deepEqual(
      [identity.issuer, identity.subject, identity.amr, identity.acr, identity.multiFactor],
      ['https://sso.corp.example', 'abc', [], null, false],
    )
  })
})

describe("a provider's e-mail that looks like another address", () => {
  // Each would turn into an existing ASCII address if folded (lower-cased, NFKC, accents or
  // invisible characters dropped): none may be read as an address at all.
  const lookAlikes = [
    ['U+212A KELVIN SIGN', '\u212Aate@corp.test'],
    ['U+212B ANGSTROM SIGN', '\u212Bsa@corp.test'],
    ['U+017F LONG S', '\u017Fam@corp.test'],
    ['U+0130 I WITH DOT ABOVE', '\u0130vo@corp.test'],
    ['U+0131 DOTLESS I', '\u0131vo@corp.test'],
    ['fullwidth letters', '\uFF4B\uFF41te@corp.test'],
    ['zero-width space', 'ka\u200Bte@corp.test'],
    ['zero-width joiner', 'ka\u200Dte@corp.test'],
    ['combining accent', 'ka\u0301te@corp.test'],
  ]
  for (const [what, email] of lookAlikes) {
    it(`${what}: no e-mail, even vouched for`, () => {
      const identity = identityFromClaims(provider(), { ...base, email, email_verified: true })
      assert.equal(identity.email, null)
      assert.equal(identity.emailVerified, false)
    })
  }
})

describe('maskCpf', () => {
  it('shows only the middle six digits, whatever the punctuation', () => {
    assert.equal(maskCpf('12345678909'), '***.456.789-**')
    assert.equal(maskCpf('123.456.789-09'), '***.456.789-**')
    assert.equal(maskCpf('not a cpf'), '***.***.***-**')
    assert.equal(maskCpf('1234567890'), '***.***.***-**')
    assert.equal(shownSubject('12345678909', true), '***.456.789-**')
    assert.equal(shownSubject('abc', false), 'abc')
  })
})

describe('the domain allow-list', () => {
  it('an empty list allows anyone; otherwise a verified e-mail of a listed domain, exactly', () => {
    assert.equal(emailDomain('ana@Example.com'), 'example.com')
    assert.equal(emailDomain('ana@'), null)
    assert.equal(emailDomain('@example.com'), null)
    assert.equal(isAllowedDomain(null, false, []), true)
    const list = ['example.com']
    assert.equal(isAllowedDomain('ana@example.com', true, list), true)
    assert.equal(isAllowedDomain('ana@example.com', false, list), false, 'unverified')
    assert.equal(isAllowedDomain('ana@sub.example.com', true, list), false, 'a subdomain')
    assert.equal(isAllowedDomain('ana@example.com.evil.test', true, list), false)
    assert.equal(isAllowedDomain('ana@evil.test', true, list), false)
    assert.equal(isAllowedDomain(null, true, list), false)
  })
})
