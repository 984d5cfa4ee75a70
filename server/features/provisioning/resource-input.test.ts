import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { LOOK_ALIKES } from '../../test/lookalike-emails'
import { groupFields } from './group-input'
import { applyPatch, PATCH_OP_SCHEMA } from './patch-operations'
import { ScimError } from './scim-error'
import { userFields } from './user-input'
import { userResource } from './user-resource'
import { ENTERPRISE_USER_SCHEMA, USER, USER_SCHEMA } from './user-schema'
import { GROUP_SCHEMA } from './group-schema'

const refusal = (run: () => unknown): ScimError => {
  try {
    run()
  } catch (error) {
    assert.ok(error instanceof ScimError, `a ScimError, not ${String(error)}`)
    return error
  }
  assert.fail('expected a refusal')
}

/** Entra ID's POST /Users as its SCIM documentation shows it (default attribute mappings). */
const entraUser = {
  schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
  externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
  userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.com',
  active: true,
  emails: [
    {
      primary: true,
      type: 'work',
      value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com',
    },
  ],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
  title: 'Engenheira',
  phoneNumbers: [{ type: 'work', value: '+55 11 5555-0100' }],
  [ENTERPRISE_USER_SCHEMA]: { employeeNumber: '701984', department: 'Vendas' },
}

/** Okta's POST /Users from its SCIM 2.0 guide. */
const oktaUser = {
  schemas: [USER_SCHEMA],
  userName: 'test.user@okta.local',
  name: { givenName: 'Test', familyName: 'User' },
  emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
  displayName: 'Test User',
  locale: 'en-US',
  externalId: '00ujl29u0le5T6Aj10h7',
  groups: [],
  password: '1mz050nq',
  active: true,
}

describe('userFields', () => {
  it("reads Entra ID's and Okta's new users: the e-mail canonical, the name, what is dropped", () => {
    assert.deepEqual(userFields(entraUser), {
      email: 'test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1@contoso.com',
      name: 'givenName familyName',
      active: true,
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
    })
    assert.deepEqual(userFields(oktaUser), {
      email: 'test.user@okta.local',
      name: 'Test User',
      active: true,
      externalId: '00ujl29u0le5T6Aj10h7',
    })
  })

  it('takes name.formatted, else displayName, else givenName and familyName', () => {
    const base = { schemas: [USER_SCHEMA], userName: 'a@corp.test' }
    assert.equal(
      userFields({ ...base, displayName: 'D', name: { formatted: 'F', givenName: 'G' } }).name,
      'F',
    )
    assert.equal(userFields({ ...base, displayName: 'D', name: { givenName: 'G' } }).name, 'D')
    assert.equal(
      userFields({ ...base, name: { givenName: ' Maria ', familyName: 'da Silva' } }).name,
      'Maria da Silva',
    )
    assert.equal(userFields({ ...base, name: { familyName: 'Silva' } }).name, 'Silva')
    assert.match(refusal(() => userFields(base)).detail, /needs a name/)
  })

  it('after a PATCH, the name source the client changed wins', () => {
    const current = userResource(
      {
        id: '2819c223-7f76-453a-919d-413861904646',
        email: 'ana@corp.test',
        name: 'Ana Souza',
        active: true,
        externalId: null,
        createdAt: new Date('2026-01-01T00:00:00Z'),
        updatedAt: new Date('2026-01-01T00:00:00Z'),
        team: null,
      },
      'https://painel.example/scim/v2',
    )
    const after = (...Operations: unknown[]) =>
      userFields(applyPatch(USER, current, { schemas: [PATCH_OP_SCHEMA], Operations }), current)
    assert.equal(after({ op: 'Replace', path: 'displayName', value: 'Ana Lima' }).name, 'Ana Lima')
    assert.equal(after({ op: 'Replace', path: 'name.familyName', value: 'Lima' }).name, 'Ana Lima')
    assert.equal(after({ op: 'Replace', path: 'active', value: 'False' }).name, 'Ana Souza')
    assert.equal(after({ op: 'Replace', path: 'active', value: 'False' }).active, false)
    assert.equal(after({ op: 'Remove', path: 'displayName' }).name, 'Ana Souza')
    assert.equal(after({ op: 'Remove', path: 'externalId' }).active, true, 'active stays as it was')
  })

  it('reads active from "True"/"False" as Entra ID sends it, and refuses anything else', () => {
    assert.equal(userFields({ ...oktaUser, active: 'False' }).active, false)
    assert.equal(userFields({ ...oktaUser, active: 'TRUE' }).active, true)
    assert.equal(refusal(() => userFields({ ...oktaUser, active: 'no' })).scimType, 'invalidValue')
  })

  it('refuses every look-alike address with invalidValue, never folding it into a real one', () => {
    for (const { what, address } of LOOK_ALIKES) {
      const error = refusal(() => userFields({ ...oktaUser, userName: address }))
      assert.equal(error.scimType, 'invalidValue', what)
      assert.match(error.detail, /not an e-mail address Painel accepts/)
    }
    assert.equal(
      userFields({ ...oktaUser, userName: '  Test.User@OKTA.local ' }).email,
      'test.user@okta.local',
    )
  })

  it('refuses 10,000-character values, long names and externalIds, and control characters', () => {
    for (const [field, value] of [
      ['userName', `${'a'.repeat(10_000)}@corp.test`],
      ['displayName', 'a'.repeat(10_000)],
      ['externalId', 'x'.repeat(10_000)],
      ['title', 'x'.repeat(10_000)],
    ] as const) {
      const error = refusal(() => userFields({ ...oktaUser, name: undefined, [field]: value }))
      assert.equal(error.scimType, 'invalidValue', field)
    }
    assert.match(
      refusal(() => userFields({ ...oktaUser, name: undefined, displayName: 'a'.repeat(101) }))
        .detail,
      /longer than 100/,
    )
    assert.match(
      refusal(() => userFields({ ...oktaUser, externalId: 'x'.repeat(256) })).detail,
      /longer than 255/,
    )
    assert.match(
      refusal(() => userFields({ ...oktaUser, displayName: 'a\u0007b', name: undefined })).detail,
      /control characters/,
    )
    assert.match(
      refusal(() => userFields({ ...oktaUser, name: undefined, displayName: '\u200b' })).detail,
      /shows nothing/,
    )
  })

  it('refuses a body that is not a User: no schemas, an unknown attribute, the wrong types', () => {
    assert.equal(
      refusal(() => userFields({ ...oktaUser, schemas: undefined })).scimType,
      'invalidSyntax',
    )
    assert.equal(
      refusal(() => userFields({ ...oktaUser, schemas: [GROUP_SCHEMA] })).scimType,
      'invalidSyntax',
    )
    assert.match(
      refusal(() => userFields({ ...oktaUser, favouriteColour: 'blue' })).detail,
      /"favouriteColour" is not an attribute of User/,
    )
    assert.equal(
      refusal(() => userFields({ ...oktaUser, name: 'Test User' })).scimType,
      'invalidValue',
    )
    assert.equal(
      refusal(() => userFields({ ...oktaUser, emails: [{ value: 5 }] })).scimType,
      'invalidValue',
    )
    assert.equal(refusal(() => userFields([oktaUser])).scimType, 'invalidSyntax')
  })

  it('ignores read-only attributes (id, meta, groups) as RFC 7644 §3.5.1 says', () => {
    const fields = userFields({
      ...oktaUser,
      id: 'mine',
      meta: { version: 'W/"x"' },
      groups: [{ value: 'g' }],
    })
    assert.equal(fields.email, 'test.user@okta.local')
  })
})

describe('groupFields', () => {
  const ANA = '2819c223-7f76-453a-919d-413861904646'
  it("reads Entra ID's and Okta's groups: name, externalId, members' ids once each, lower-case", () => {
    assert.deepEqual(
      groupFields({
        schemas: [GROUP_SCHEMA],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: ' displayName ',
        meta: { resourceType: 'Group' },
        members: [{ value: ANA.toUpperCase(), display: 'Ana' }, { value: ANA }],
      }),
      { name: 'displayName', externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', memberIds: [ANA] },
    )
    assert.deepEqual(groupFields({ schemas: [GROUP_SCHEMA], displayName: 'Vendas' }).memberIds, [])
  })

  it('refuses no name, a long name, a member that is no User id, a member Group', () => {
    const group = { schemas: [GROUP_SCHEMA], displayName: 'Vendas' }
    assert.match(
      refusal(() => groupFields({ ...group, displayName: '  ' })).detail,
      /needs a displayName/,
    )
    assert.match(
      refusal(() => groupFields({ ...group, displayName: 'x'.repeat(61) })).detail,
      /longer than 60/,
    )
    assert.equal(
      refusal(() => groupFields({ ...group, displayName: 'x'.repeat(10_000) })).scimType,
      'invalidValue',
    )
    assert.match(
      refusal(() => groupFields({ ...group, members: [{ value: 'bjensen' }] })).detail,
      /not the id of a User/,
    )
    assert.match(
      refusal(() => groupFields({ ...group, members: [{ value: ANA, type: 'Group' }] })).detail,
      /only Users/,
    )
    assert.equal(
      refusal(() => groupFields({ ...group, members: [{ value: ANA, operation: 'delete' }] }))
        .scimType,
      'invalidValue',
    )
  })
})
