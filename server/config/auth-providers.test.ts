import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readSingleSignOn, type SingleSignOnConfig } from './auth-providers'
import { EnvReader, type Env } from './env-reader'
import { testProviderSettings } from '../test/oidc-test-provider'

function read(env: Env): { config: SingleSignOnConfig; problems: readonly string[] } {
  const reader = new EnvReader(env)
  const config = readSingleSignOn(reader, env)
  return { config, problems: reader.problems }
}

/** A provider's three required settings. */
const corp = {
  AUTH_PROVIDERS: 'corp',
  AUTH_CORP_ISSUER_URL: 'https://sso.corp.example/realms/staff',
  AUTH_CORP_CLIENT_ID: 'painel',
  AUTH_CORP_CLIENT_SECRET: 'segredo-do-cliente',
}

describe('readSingleSignOn', () => {
  it('without AUTH_PROVIDERS: no providers, password sign-in on', () => {
    assert.deepEqual(read({}), {
      config: { authProviders: [], passwordSignIn: true },
      problems: [],
    })
    assert.deepEqual(read({ AUTH_PROVIDERS: ' ' }).config.authProviders, [])
  })

  it('a generic provider with only the required settings gets the defaults', () => {
    const { config, problems } = read(corp)
    assert.deepEqual(problems, [])
    // The defaults are the single sign-on tests' own (server/test/oidc-test-provider.ts): this
    // checks them against what the config really reads, so those tests run on real settings.
    assert.deepEqual(config.authProviders, [
      testProviderSettings({
        issuerUrl: 'https://sso.corp.example/realms/staff',
        clientSecret: 'segredo-do-cliente',
      }),
    ])
  })

  it('ROLE_CLAIM/ROLE_MAP and TEAM_CLAIM/TEAM_MAP: value=Name pairs in their order', () => {
    const { config, problems } = read({
      ...corp,
      AUTH_CORP_ADMIN_CLAIM: 'groups',
      AUTH_CORP_ADMIN_VALUES: 'painel-admin',
      AUTH_CORP_ROLE_CLAIM: 'groups',
      AUTH_CORP_ROLE_MAP: ' painel-gestores = Gestor de equipe ;painel-audit=Auditoria;',
      AUTH_CORP_TEAM_CLAIM: 'realm_access.teams',
      // A value ends at the last `=`: an LDAP group's name keeps its own.
      AUTH_CORP_TEAM_MAP: 'cn=vendas,ou=groups=Vendas; /painel/suporte=Atendimento',
    })
    assert.deepEqual(problems, [])
    const [provider] = config.authProviders
    assert.equal(provider?.roleClaim, 'groups')
    assert.deepEqual(provider?.roleMap, [
      { value: 'painel-gestores', name: 'Gestor de equipe' },
      { value: 'painel-audit', name: 'Auditoria' },
    ])
    assert.equal(provider?.teamClaim, 'realm_access.teams')
    assert.deepEqual(provider?.teamMap, [
      { value: 'cn=vendas,ou=groups', name: 'Vendas' },
      { value: '/painel/suporte', name: 'Atendimento' },
    ])
    assert.deepEqual(provider?.adminValues, ['painel-admin'], 'ADMIN_VALUES stay beside them')
  })

  it('a claim without its map, a map without its claim, a malformed or repeated pair', () => {
    const { config, problems } = read({
      ...corp,
      AUTH_PROVIDERS: 'corp,other,third',
      AUTH_CORP_ROLE_CLAIM: 'groups',
      AUTH_CORP_TEAM_MAP: 'vendas=Vendas',
      AUTH_OTHER_ISSUER_URL: 'https://idp.example',
      AUTH_OTHER_CLIENT_ID: 'x',
      AUTH_OTHER_CLIENT_SECRET: 'y',
      AUTH_OTHER_ROLE_CLAIM: 'groups',
      AUTH_OTHER_ROLE_MAP: 'painel-gestores;=Auditoria;painel-x=;a=b=Suporte',
      AUTH_OTHER_TEAM_CLAIM: 'groups list',
      AUTH_OTHER_TEAM_MAP: `vendas=Vendas;vendas=Compras;longo=${'x'.repeat(61)}`,
      AUTH_THIRD_ISSUER_URL: 'https://idp.example',
      AUTH_THIRD_CLIENT_ID: 'x',
      AUTH_THIRD_CLIENT_SECRET: 'y',
      AUTH_THIRD_ROLE_CLAIM: 'groups',
      AUTH_THIRD_ROLE_MAP: ' ; ',
      AUTH_FOURTH_TEAM_MAP: 'a=B',
    })
    assert.deepEqual(config.authProviders, [], 'a provider with a problem is not used')
    assert.deepEqual(problems, [
      "AUTH_CORP_ROLE_CLAIM is set without AUTH_CORP_ROLE_MAP: map the claim's values, e.g. AUTH_CORP_ROLE_MAP=painel-gestores=Gestor de equipe",
      'AUTH_CORP_TEAM_MAP is set without AUTH_CORP_TEAM_CLAIM: name the claim that holds the values',
      'AUTH_OTHER_ROLE_MAP: "painel-gestores" is not a value=Role name pair (pairs separated by ;, names of 60 characters at most)',
      'AUTH_OTHER_ROLE_MAP: "=Auditoria" is not a value=Role name pair (pairs separated by ;, names of 60 characters at most)',
      'AUTH_OTHER_ROLE_MAP: "painel-x=" is not a value=Role name pair (pairs separated by ;, names of 60 characters at most)',
      'AUTH_OTHER_TEAM_CLAIM="groups list" is not a claim name (letters, digits and _ : / . -, 100 at most)',
      'AUTH_OTHER_TEAM_MAP maps "vendas" twice: keep one pair (the first that matches decides)',
      `AUTH_OTHER_TEAM_MAP: "longo=${'x'.repeat(51)}..." is not a value=Team name pair (pairs separated by ;, names of 60 characters at most)`,
      'AUTH_THIRD_ROLE_MAP=";" has no value=Role name pair',
      'AUTH_FOURTH_TEAM_MAP is set but "fourth" is not in AUTH_PROVIDERS (corp,other,third): add it there or remove the variable',
    ])
  })

  it('reads every setting, with names and values in any case', () => {
    const { config, problems } = read({
      ...corp,
      AUTH_PROVIDERS: ' Google , entra,govbr,Corp ',
      AUTH_GOOGLE_PRESET: 'GOOGLE',
      AUTH_GOOGLE_CLIENT_ID: 'g-id',
      AUTH_GOOGLE_CLIENT_SECRET: 'g-secret',
      AUTH_GOOGLE_ALLOWED_DOMAINS: '@Example.com, example.org,example.com',
      AUTH_ENTRA_PRESET: 'entra',
      AUTH_ENTRA_ISSUER_URL: 'https://login.microsoftonline.com/0000-tenant/v2.0',
      AUTH_ENTRA_CLIENT_ID: 'e-id',
      AUTH_ENTRA_CLIENT_SECRET: 'e-secret',
      AUTH_ENTRA_ADMIN_CLAIM: 'roles',
      AUTH_ENTRA_ADMIN_VALUES: 'Painel.Admin, Painel.Owner',
      AUTH_ENTRA_TRUST_MFA: 'true',
      AUTH_ENTRA_LABEL: 'Conta da Prefeitura',
      AUTH_GOVBR_PRESET: 'govbr',
      AUTH_GOVBR_ISSUER_URL: 'https://sso.staging.acesso.gov.br/',
      AUTH_GOVBR_CLIENT_ID: 'gov-id',
      AUTH_GOVBR_CLIENT_SECRET: 'gov-secret',
      AUTH_GOVBR_AUTO_APPROVE: 'yes',
      AUTH_CORP_LABEL: 'Keycloak da Empresa',
      AUTH_CORP_ADMIN_CLAIM: 'realm_access.roles',
      AUTH_CORP_ADMIN_VALUES: 'painel-admin',
      PASSWORD_SIGN_IN: 'OFF',
    })
    assert.deepEqual(problems, [])
    assert.equal(config.passwordSignIn, false)
    const [google, entra, govbr, corpProvider] = config.authProviders
    assert.equal(google?.issuerUrl, 'https://accounts.google.com', "Google's issuer is implied")
    assert.equal(google?.buttonText, 'Entrar com Google')
    assert.equal(google?.mark, 'google')
    assert.deepEqual(google?.allowedDomains, ['example.com', 'example.org'])
    assert.equal(entra?.buttonText, 'Entrar com Conta da Prefeitura', 'LABEL overrides the words')
    assert.equal(entra?.mark, 'microsoft')
    assert.equal(entra?.adminClaim, 'roles')
    assert.deepEqual(entra?.adminValues, ['Painel.Admin', 'Painel.Owner'])
    assert.equal(entra?.trustMfa, true)
    assert.equal(govbr?.buttonText, 'Entrar com gov.br')
    assert.deepEqual(govbr?.scopes, ['openid', 'email', 'profile', 'govbr_confiabilidades'])
    assert.equal(govbr?.issuerUrl, 'https://sso.staging.acesso.gov.br/', 'kept as written')
    assert.equal(govbr?.autoApprove, true)
    assert.equal(corpProvider?.name, 'corp')
    assert.equal(corpProvider?.buttonText, 'Entrar com Keycloak da Empresa')
    assert.equal(corpProvider?.adminClaim, 'realm_access.roles')
  })

  it('the Microsoft preset without a LABEL says Microsoft', () => {
    const { config } = read({
      AUTH_PROVIDERS: 'm365',
      AUTH_M365_PRESET: 'entra',
      AUTH_M365_ISSUER_URL: 'https://login.microsoftonline.com/0000-tenant/v2.0',
      AUTH_M365_CLIENT_ID: 'id',
      AUTH_M365_CLIENT_SECRET: 'secret',
    })
    assert.equal(config.authProviders[0]?.buttonText, 'Entrar com Microsoft')
  })

  it('allows http:// only for a provider on this machine (the tests)', () => {
    for (const issuer of [
      'http://127.0.0.1:9000',
      'http://localhost:9000/x',
      'http://[::1]:9000',
    ]) {
      assert.deepEqual(read({ ...corp, AUTH_CORP_ISSUER_URL: issuer }).problems, [], issuer)
    }
  })

  it('reports every problem, one line each naming the variable, never echoing a secret', () => {
    const { config, problems } = read({
      AUTH_PROVIDERS: 'corp,corp,9lives,other,govbr,entra',
      AUTH_CORP_ISSUER_URL: 'http://sso.corp.example',
      AUTH_CORP_CLIENT_ID: 'painel',
      AUTH_CORP_CLIENT_SECRET: 'segredo\u0007-do-cliente',
      AUTH_CORP_PRESET: 'okta',
      AUTH_CORP_ALLOWED_DOMAINS: 'example.com, not a domain,@',
      AUTH_CORP_AUTO_APPROVE: 'sometimes',
      AUTH_CORP_ADMIN_CLAIM: 'groups',
      AUTH_OTHER_ISSUER_URL: 'https://idp.example/?tenant=1',
      AUTH_OTHER_ADMIN_VALUES: 'admins',
      AUTH_OTHER_TRUST_MFA: 'maybe',
      AUTH_OTHER_LABEL: 'a\u202eb',
      AUTH_GOVBR_PRESET: 'govbr',
      AUTH_GOVBR_ISSUER_URL: 'https://sso.acesso.gov.br/',
      AUTH_GOVBR_CLIENT_ID: 'x',
      AUTH_GOVBR_CLIENT_SECRET: 'y',
      AUTH_GOVBR_LABEL: 'Gov',
      AUTH_ENTRA_PRESET: 'entra',
      AUTH_ENTRA_ISSUER_URL: 'https://login.microsoftonline.com/common/v2.0',
      AUTH_ENTRA_CLIENT_ID: 'x',
      AUTH_ENTRA_CLIENT_SECRET: 'y',
      AUTH_GOGLE_CLIENT_ID: 'typo',
      AUTH_RATE_LIMIT: '60',
      PASSWORD_SIGN_IN: 'disabled',
    })
    assert.deepEqual(config.authProviders, [], 'a provider with a problem is not used')
    assert.deepEqual(problems, [
      'AUTH_PROVIDERS="corp,corp,9lives,other,govbr,entra" names "corp" twice',
      'AUTH_PROVIDERS="corp,corp,9lives,other,govbr,entra": "9lives" is not a provider name: use a letter, then letters and digits (32 at most)',
      'AUTH_CORP_PRESET="okta" is not one of google, entra, govbr, generic',
      'AUTH_CORP_ISSUER_URL="http://sso.corp.example" must start with https:// (http:// only for a provider on this machine)',
      'AUTH_CORP_CLIENT_SECRET has control characters or is longer than 2000 characters',
      'AUTH_CORP_ALLOWED_DOMAINS="example.com, not a domain,@" is not a list of e-mail domains ("not a domain", "" not understood): use e.g. example.com,example.org',
      'AUTH_CORP_ADMIN_CLAIM is set without AUTH_CORP_ADMIN_VALUES: name the values that make an admin',
      'AUTH_CORP_AUTO_APPROVE="sometimes" is not a yes/no value: use true or false',
      'AUTH_OTHER_ISSUER_URL="https://idp.example/?tenant=1" is not an issuer: no query, fragment or user name in it',
      'AUTH_OTHER_CLIENT_ID is not set: other is in AUTH_PROVIDERS and needs it (the provider gives it when Painel is registered there)',
      'AUTH_OTHER_CLIENT_SECRET is not set: other is in AUTH_PROVIDERS and needs it (the provider gives it when Painel is registered there)',
      'AUTH_OTHER_LABEL="a?b" is not a button label: 1 to 40 characters, no control characters',
      'AUTH_OTHER_ADMIN_VALUES is set without AUTH_OTHER_ADMIN_CLAIM: name the claim that holds them',
      'AUTH_OTHER_TRUST_MFA="maybe" is not a yes/no value: use true or false',
      'AUTH_GOVBR_LABEL="Gov": the govbr preset\'s button keeps its brand\'s words ("Entrar com gov.br"); remove the LABEL',
      'AUTH_ENTRA_ISSUER_URL="https://login.microsoftonline.com/common/v2.0" is Entra\'s multi-tenant endpoint: use your tenant\'s issuer, https://login.microsoftonline.com/<tenant id>/v2.0',
      'AUTH_GOGLE_CLIENT_ID is set but "gogle" is not in AUTH_PROVIDERS (corp,other,govbr,entra): add it there or remove the variable',
      'PASSWORD_SIGN_IN="disabled" is not one of on, off',
    ])
    assert.ok(!problems.some((problem) => problem.includes('segredo')))
  })

  it('a provider without an issuer, and PASSWORD_SIGN_IN=off with no provider', () => {
    assert.deepEqual(read({ PASSWORD_SIGN_IN: 'off' }).problems, [
      'PASSWORD_SIGN_IN=off needs a provider in AUTH_PROVIDERS: nobody but ADMIN_EMAIL could sign in',
    ])
    const { problems } = read({ ...corp, AUTH_CORP_ISSUER_URL: '' })
    assert.deepEqual(problems, [
      'AUTH_CORP_ISSUER_URL is not set: corp is in AUTH_PROVIDERS and needs its issuer (discovery reads <issuer>/.well-known/openid-configuration)',
    ])
    assert.match(
      read({ ...corp, AUTH_CORP_ISSUER_URL: 'sso.corp' }).problems[0] ?? '',
      /is not a URL$/,
    )
  })
})
