import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { scimPatch, type ScimPatchOperation, type ScimResource as OracleResource } from 'scim-patch'
import type { ResourceKind } from './attribute-schema'
import { GROUP } from './group-schema'
import { groupResource } from './group-resource'
import { groupFields } from './group-input'
import { applyPatch, membersNamedByPatch, PATCH_OP_SCHEMA } from './patch-operations'
import { ScimError } from './scim-error'
import { USER } from './user-schema'
import { userResource, type ScimResource } from './user-resource'

const BASE = 'https://painel.example/scim/v2'
const ANA = '2819c223-7f76-453a-919d-413861904646'
const BRUNO = '5f0d6a5e-9b7c-4c1a-8d2e-3f4a5b6c7d8e'
const CARLA = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'
const TEAM = 'e9e30dba-f08f-4109-8486-d5c6a331660a'

const user = userResource(
  {
    id: ANA,
    email: 'ana.souza@corp.test',
    name: 'Ana Souza',
    active: true,
    externalId: 'entra-object-1',
    createdAt: new Date('2026-01-10T12:00:00.000Z'),
    updatedAt: new Date('2026-01-11T12:00:00.000Z'),
    team: { id: TEAM, name: 'Vendas' },
  },
  BASE,
)

const group = groupResource(
  {
    id: TEAM,
    name: 'Vendas',
    externalId: null,
    createdAt: new Date('2026-01-01T12:00:00.000Z'),
    updatedAt: new Date('2026-01-02T12:00:00.000Z'),
    version: 'a1b2c3d4e5f60718',
    members: [
      { id: ANA, name: 'Ana Souza' },
      { id: BRUNO, name: 'Bruno Lima' },
    ],
  },
  BASE,
)

const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_OP_SCHEMA], Operations })

const refusal = (run: () => unknown): ScimError => {
  try {
    run()
  } catch (error) {
    assert.ok(error instanceof ScimError, `a ScimError, not ${String(error)}`)
    return error
  }
  assert.fail('expected a refusal')
}

/**
 * scim-patch's result for the same operations, on a copy, with empty lists and objects dropped:
 * an empty attribute and an absent one are the same state (RFC 7643 §2.5); ours drops it.
 */
const oracle = (resource: ScimResource, operations: unknown[]) =>
  withoutEmptyValues(oracleResult(resource, operations))

const withoutEmptyValues = (resource: ScimResource) =>
  Object.fromEntries(
    Object.entries(resource).filter(
      ([, value]) =>
        !(value !== null && typeof value === 'object' && Object.keys(value).length === 0),
    ),
  ) as ScimResource

const oracleResult = (resource: ScimResource, operations: unknown[]) =>
  scimPatch(
    structuredClone(resource) as unknown as OracleResource,
    operations as ScimPatchOperation[],
    {
      mutateDocument: false,
      treatMissingAsAdd: true,
    },
  ) as unknown as ScimResource

describe('applyPatch: what Microsoft Entra ID sends', () => {
  it('disables with "Replace" of active as the string "False", with and without a path', () => {
    const withPath = applyPatch(
      USER,
      user,
      patch({ op: 'Replace', path: 'active', value: 'False' }),
    )
    assert.equal(withPath.active, false)
    const withoutPath = applyPatch(USER, user, patch({ op: 'Replace', value: { active: 'False' } }))
    assert.equal(withoutPath.active, false)
    assert.equal(
      applyPatch(USER, withoutPath, patch({ op: 'Replace', value: { active: 'True' } })).active,
      true,
    )
    assert.equal(user.active, true, 'the resource given is left as it was')
  })

  it('takes a Replace without path whose keys are paths, URN-qualified ones and the extension', () => {
    const result = applyPatch(
      USER,
      user,
      patch({
        op: 'Replace',
        value: {
          displayName: 'Ana Souza Lima',
          'name.givenName': 'Ana',
          'name.familyName': 'Souza Lima',
          'urn:ietf:params:scim:schemas:core:2.0:User:externalId': 'entra-object-2',
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'Vendas',
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': {
            employeeNumber: '701984',
          },
          title: 'Gerente',
          id: 'ignored-as-read-only',
        },
      }),
    )
    assert.equal(result.displayName, 'Ana Souza Lima')
    assert.deepEqual(result.name, {
      formatted: 'Ana Souza',
      givenName: 'Ana',
      familyName: 'Souza Lima',
    })
    assert.equal(result.externalId, 'entra-object-2')
    assert.equal(result.id, ANA)
    assert.equal('title' in result, false, 'an attribute Painel does not keep is dropped')
  })

  it('changes the work e-mail through emails[type eq "work"].value', () => {
    const result = applyPatch(
      USER,
      user,
      patch({ op: 'Replace', path: 'emails[type eq "work"].value', value: 'ana.lima@corp.test' }),
    )
    assert.deepEqual(result.emails, [{ value: 'ana.lima@corp.test', type: 'work', primary: true }])
    const added = applyPatch(
      USER,
      user,
      patch({ op: 'Add', path: 'emails[type eq "home"].value', value: 'ana@home.test' }),
    )
    assert.deepEqual((added.emails as unknown[])[1], { type: 'home', value: 'ana@home.test' })
  })

  it('adds members, removes one by the filtered path and others by value, renames the group', () => {
    const added = applyPatch(
      GROUP,
      group,
      patch({ op: 'Add', path: 'members', value: [{ value: CARLA }] }),
    )
    assert.deepEqual(
      (added.members as { value: string }[]).map((member) => member.value),
      [ANA, BRUNO, CARLA],
    )
    const removed = applyPatch(
      GROUP,
      added,
      patch({ op: 'Remove', path: `members[value eq "${BRUNO.toUpperCase()}"]` }),
    )
    assert.deepEqual(
      (removed.members as { value: string }[]).map((member) => member.value),
      [ANA, CARLA],
    )
    const listed = applyPatch(
      GROUP,
      added,
      patch({ op: 'Remove', path: 'members', value: [{ value: ANA }, { value: CARLA }] }),
    )
    assert.deepEqual(
      (listed.members as { value: string }[]).map((member) => member.value),
      [BRUNO],
    )
    const renamed = applyPatch(
      GROUP,
      group,
      patch({ op: 'Replace', path: 'displayName', value: 'Vendas Sul' }),
    )
    assert.equal(renamed.displayName, 'Vendas Sul')
  })

  it('adds a member already there once only', () => {
    const again = applyPatch(
      GROUP,
      group,
      patch({ op: 'Add', path: 'members', value: [{ value: ANA.toUpperCase() }] }),
    )
    assert.equal((again.members as unknown[]).length, 2)
  })
})

describe('applyPatch: what Okta sends', () => {
  it('deactivates with replace of active, renames a group with its id alongside', () => {
    assert.equal(
      applyPatch(USER, user, patch({ op: 'replace', value: { active: false } })).active,
      false,
    )
    const renamed = applyPatch(
      GROUP,
      group,
      patch({ op: 'replace', value: { id: TEAM, displayName: 'Vendas 2' } }),
    )
    assert.equal(renamed.displayName, 'Vendas 2')
  })

  it('pushes group membership with add and remove', () => {
    const result = applyPatch(
      GROUP,
      group,
      patch(
        { op: 'add', path: 'members', value: [{ value: CARLA, display: 'Carla Dias' }] },
        { op: 'remove', path: `members[value eq "${ANA}"]` },
      ),
    )
    assert.deepEqual(result.members, [
      { value: BRUNO, $ref: `${BASE}/Users/${BRUNO}`, display: 'Bruno Lima', type: 'User' },
      { value: CARLA, display: 'Carla Dias' },
    ])
  })
})

describe('applyPatch: refusals (RFC 7644 §3.5.2, §3.12)', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['no PatchOp schema', { Operations: [{ op: 'add', value: {} }] }, 'invalidSyntax', /must list/],
    ['no operations', patch(), 'invalidSyntax', /non-empty "Operations"/],
    [
      'an unknown op',
      patch({ op: 'move', path: 'userName' }),
      'invalidSyntax',
      /must be add, remove or replace/,
    ],
    ['a remove without path', patch({ op: 'remove' }), 'noTarget', /needs one/],
    [
      'an add without value',
      patch({ op: 'add', path: 'displayName' }),
      'invalidValue',
      /no "value"/,
    ],
    [
      'an unknown attribute',
      patch({ op: 'replace', path: 'nickname2', value: 'x' }),
      'invalidPath',
      /not an attribute of User/,
    ],
    [
      'an unknown key without path',
      patch({ op: 'replace', value: { colour: 'blue' } }),
      'invalidPath',
      /"colour"/,
    ],
    [
      'a malformed path',
      patch({ op: 'replace', path: 'emails[type eq "work"', value: 'x' }),
      'invalidPath',
      /expected "\]"/,
    ],
    [
      'a filter on an unknown sub-attribute',
      patch({ op: 'replace', path: 'emails[kind eq "work"].value', value: 'x' }),
      'invalidPath',
      /not a sub-attribute/,
    ],
    [
      'a filter that selects nothing (replace)',
      patch({ op: 'replace', path: 'emails[type eq "home"].value', value: 'x' }),
      'noTarget',
      /selects no value/,
    ],
    [
      'a filter that selects nothing (remove)',
      patch({ op: 'remove', path: 'emails[type eq "home"]' }),
      'noTarget',
      /selects no value/,
    ],
    ['the id', patch({ op: 'replace', path: 'id', value: 'x' }), 'mutability', /"id" is read-only/],
    [
      'meta.lastModified',
      patch({ op: 'replace', path: 'meta.lastModified', value: '2026-01-01T00:00:00Z' }),
      'mutability',
      /read-only/,
    ],
    [
      'groups of a User',
      patch({ op: 'add', path: 'groups', value: [{ value: TEAM }] }),
      'mutability',
      /"groups" is read-only/,
    ],
    [
      'active as "yes"',
      patch({ op: 'replace', path: 'active', value: 'yes' }),
      'invalidValue',
      /must be true or false/,
    ],
    [
      'a 10,000-character name',
      patch({ op: 'replace', path: 'displayName', value: 'a'.repeat(10_000) }),
      'invalidValue',
      /longer than 2048/,
    ],
    [
      'a 10,000-character title (dropped, still refused)',
      patch({ op: 'replace', path: 'title', value: 'a'.repeat(10_000) }),
      'invalidValue',
      /longer than 2048/,
    ],
    [
      'a control character',
      patch({ op: 'replace', path: 'displayName', value: 'a\u0000b' }),
      'invalidValue',
      /control characters/,
    ],
    [
      'name as text',
      patch({ op: 'replace', path: 'name', value: 'Ana' }),
      'invalidValue',
      /must be an object/,
    ],
    [
      'a value object that is an array',
      patch({ op: 'add', value: [1] }),
      'invalidValue',
      /must be an object of attributes/,
    ],
  ]
  for (const [what, body, scimType, detail] of cases) {
    it(`refuses ${what} with ${scimType}`, () => {
      const error = refusal(() => applyPatch(USER, user, body))
      assert.equal(error.status, 400)
      assert.equal(error.scimType, scimType)
      assert.match(error.detail, detail)
    })
  }

  it('refuses a change of an immutable member value, and removing a member who is not there', () => {
    const error = refusal(() =>
      applyPatch(
        GROUP,
        group,
        patch({ op: 'replace', path: `members[value eq "${ANA}"].value`, value: CARLA }),
      ),
    )
    assert.equal(error.scimType, 'mutability')
    assert.equal(
      refusal(() =>
        applyPatch(GROUP, group, patch({ op: 'remove', path: `members[value eq "${CARLA}"]` })),
      ).scimType,
      'noTarget',
    )
    assert.equal(
      refusal(() =>
        applyPatch(
          GROUP,
          group,
          patch({ op: 'remove', path: 'members', value: [{ value: CARLA }] }),
        ),
      ).scimType,
      'noTarget',
    )
  })

  it('is all or nothing: a refused second operation leaves the resource as it was', () => {
    const before = structuredClone(user)
    refusal(() =>
      applyPatch(
        USER,
        user,
        patch(
          { op: 'replace', path: 'displayName', value: 'Nova' },
          { op: 'replace', path: 'id', value: 'x' },
        ),
      ),
    )
    assert.deepEqual(user, before)
  })

  it('never throws anything but a ScimError, whatever the operations (property)', () => {
    const anything = fc.anything({ maxDepth: 3 })
    const operation = fc.record(
      {
        op: fc.constantFrom('add', 'Add', 'replace', 'Replace', 'remove', 'REMOVE', 'copy', 1),
        path: fc.oneof(
          fc.constantFrom(
            'active',
            'emails[type eq "work"].value',
            'members',
            'name.givenName',
            'groups',
            'x[',
            'meta',
            'userName',
            'members[value eq "a"]',
          ),
          fc.string(),
        ),
        value: anything,
      },
      { requiredKeys: ['op'] },
    )
    fc.assert(
      fc.property(
        fc.constantFrom(user, group),
        fc.array(operation, { maxLength: 4 }),
        (resource, operations) => {
          const kind = resource === user ? USER : GROUP
          try {
            applyPatch(kind, resource, patch(...operations))
          } catch (error) {
            assert.ok(error instanceof ScimError, String(error))
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('applyPatch agrees with scim-patch', () => {
  /** Operations written as the RFC spells them, on attributes Painel keeps. */
  const userCorpus: unknown[][] = [
    [{ op: 'replace', path: 'active', value: false }],
    [{ op: 'replace', value: { active: false, displayName: 'Ana S.' } }],
    [{ op: 'replace', path: 'name.givenName', value: 'Aninha' }],
    [{ op: 'add', path: 'name.familyName', value: 'Lima' }],
    [{ op: 'replace', path: 'name', value: { givenName: 'A', familyName: 'B' } }],
    [{ op: 'remove', path: 'name.familyName' }],
    [{ op: 'remove', path: 'externalId' }],
    [{ op: 'add', path: 'externalId', value: 'okta-00u1' }],
    [{ op: 'replace', path: 'userName', value: 'ana.lima@corp.test' }],
    [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'ana.lima@corp.test' }],
    [{ op: 'replace', path: 'emails[type eq "work"]', value: { value: 'x@corp.test' } }],
    [{ op: 'add', path: 'emails[type eq "home"].value', value: 'ana@home.test' }],
    [{ op: 'remove', path: 'emails[type eq "work"]' }],
    [
      {
        op: 'replace',
        path: 'emails',
        value: [{ value: 'n@corp.test', type: 'work', primary: true }],
      },
    ],
    [
      { op: 'add', path: 'displayName', value: 'Ana' },
      { op: 'replace', path: 'active', value: true },
      { op: 'remove', path: 'displayName' },
    ],
  ]
  const groupCorpus: unknown[][] = [
    [{ op: 'add', path: 'members', value: [{ value: CARLA }] }],
    [
      {
        op: 'add',
        path: 'members',
        value: [
          { value: CARLA, display: 'Carla' },
          { value: '11111111-2222-4333-8444-555555555555' },
        ],
      },
    ],
    [{ op: 'remove', path: `members[value eq "${ANA}"]` }],
    [{ op: 'remove', path: `members[value eq "${ANA}" or value eq "${BRUNO}"]` }],
    [{ op: 'remove', path: 'members' }],
    [{ op: 'replace', path: 'members', value: [{ value: CARLA }] }],
    [{ op: 'replace', path: 'displayName', value: 'Vendas Norte' }],
    [{ op: 'replace', value: { displayName: 'Vendas Norte' } }],
    [{ op: 'add', path: 'externalId', value: 'grp-1' }],
  ]
  for (const [kind, resource, corpus] of [
    [USER, user, userCorpus],
    [GROUP, group, groupCorpus],
  ] as const) {
    for (const operations of corpus) {
      it(`${kind.name}: ${JSON.stringify(operations)}`, () => {
        assert.deepEqual(
          applyPatch(kind, resource, patch(...operations)),
          oracle(resource, operations),
        )
      })
    }
  }

  it('on generated operation lists over the kept attributes (property)', () => {
    const text = fc.constantFrom('Ana', 'ana.souza@corp.test', 'x@y.test', 'Zé', 'okta-1')
    // Added members are new ones: a member already there is matched by its value in ours and
    // by deep equality in scim-patch (a case of its own below).
    const DANI = '11111111-2222-4333-8444-555555555555'
    const member = fc.constantFrom(CARLA, DANI).map((value) => ({ value }))
    const userOperation = fc.oneof(
      fc.record({
        op: fc.constantFrom('add', 'replace'),
        path: fc.constantFrom(
          'displayName',
          'userName',
          'externalId',
          'name.givenName',
          'name.familyName',
          'name.formatted',
          'emails[type eq "work"].value',
        ),
        value: text,
      }),
      fc.record({
        op: fc.constantFrom('add', 'replace'),
        path: fc.constant('active'),
        value: fc.boolean(),
      }),
      fc.record({
        op: fc.constantFrom('add', 'replace'),
        value: fc.record({ displayName: text, active: fc.boolean() }, { requiredKeys: [] }),
      }),
      fc.record({
        op: fc.constant('remove'),
        path: fc.constantFrom('displayName', 'externalId', 'name.givenName', 'name', 'active'),
      }),
    )
    const groupOperation = fc.oneof(
      fc.record({
        op: fc.constant('add'),
        path: fc.constant('members'),
        // One value once per add: scim-patch adds a value listed twice twice.
        value: fc.uniqueArray(member, { minLength: 1, maxLength: 2, selector: (m) => m.value }),
      }),
      fc.record({
        op: fc.constant('replace'),
        path: fc.constant('members'),
        value: fc.uniqueArray(
          fc.constantFrom(ANA, BRUNO, CARLA, DANI).map((value) => ({ value })),
          { maxLength: 3, selector: (m) => m.value },
        ),
      }),
      fc.record({
        op: fc.constantFrom('add', 'replace'),
        path: fc.constant('displayName'),
        value: text,
      }),
      fc
        .constantFrom(ANA, BRUNO, CARLA)
        .map((id) => ({ op: 'remove', path: `members[value eq "${id}"]` })),
    )
    let compared = 0
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(
            fc.constant<ResourceKind>(USER),
            fc.array(userOperation, { minLength: 1, maxLength: 5 }),
          ),
          fc.tuple(fc.constant(GROUP), fc.array(groupOperation, { minLength: 1, maxLength: 5 })),
        ),
        ([kind, operations]) => {
          const resource = kind === USER ? user : group
          let ours: ScimResource
          try {
            ours = applyPatch(kind, resource, patch(...operations))
          } catch (error) {
            // Ours refuses a removal whose filter selects nobody (noTarget); scim-patch lets it
            // pass. Any other refusal is a disagreement.
            assert.ok(error instanceof ScimError && error.scimType === 'noTarget', String(error))
            return
          }
          compared += 1
          assert.deepEqual(ours, oracle(resource, operations))
        },
      ),
      { numRuns: 1000 },
    )
    assert.ok(compared > 500, `${compared} compared`)
  })
})

describe('where applyPatch and scim-patch part, on purpose (RFC 7644 wins)', () => {
  it('a filtered replace that selects nothing: RFC noTarget; scim-patch adds an element', () => {
    const operations = [
      { op: 'replace', path: 'emails[type eq "home"].value', value: 'x@home.test' },
    ]
    assert.equal(refusal(() => applyPatch(USER, user, patch(...operations))).scimType, 'noTarget')
    assert.equal((oracle(user, operations).emails as unknown[]).length, 2)
  })

  it('a filtered remove that selects nothing: RFC noTarget; scim-patch answers with no change', () => {
    const operations = [{ op: 'remove', path: `members[value eq "${CARLA}"]` }]
    assert.equal(refusal(() => applyPatch(GROUP, group, patch(...operations))).scimType, 'noTarget')
    assert.deepEqual(oracle(group, operations), group)
  })

  it('"False" for a boolean: ours reads false; scim-patch stores the string', () => {
    const operations = [{ op: 'Replace', value: { active: 'False' } }]
    assert.equal(applyPatch(USER, user, patch(...operations)).active, false)
    assert.equal(oracle(user, operations).active, 'False')
  })

  it('a second primary e-mail: ours keeps one primary (RFC 7643 §2.4); scim-patch keeps two', () => {
    const operations = [
      { op: 'add', path: 'emails', value: [{ value: 'b@corp.test', type: 'home', primary: true }] },
    ]
    const primaries = (resource: ScimResource) =>
      (resource.emails as { primary?: boolean }[]).filter((email) => email.primary === true).length
    assert.equal(primaries(applyPatch(USER, user, patch(...operations))), 1)
    assert.equal(primaries(oracle(user, operations)), 2)
  })

  it('a read-only id: ours refuses (mutability); scim-patch changes it', () => {
    const operations = [{ op: 'replace', path: 'id', value: 'other' }]
    assert.equal(refusal(() => applyPatch(USER, user, patch(...operations))).scimType, 'mutability')
    assert.equal(oracle(user, operations).id, 'other')
  })

  it("Entra's removal by value ({value} of a member): ours removes it; scim-patch removes nobody", () => {
    // scim-patch compares the listed {"value": …} with the whole member element: the bug
    // authentik has (#24173, #25686), a 200 that removes nobody.
    const operations = [{ op: 'remove', path: 'members', value: [{ value: ANA }] }]
    assert.deepEqual(
      (applyPatch(GROUP, group, patch(...operations)).members as { value: string }[]).map(
        (m) => m.value,
      ),
      [BRUNO],
    )
    assert.equal((oracle(group, operations).members as unknown[]).length, 2)
  })

  it('adding a member already there: ours changes nothing; scim-patch adds a second element', () => {
    const operations = [{ op: 'add', path: 'members', value: [{ value: ANA }] }]
    assert.equal((applyPatch(GROUP, group, patch(...operations)).members as unknown[]).length, 2)
    assert.equal((oracle(group, operations).members as unknown[]).length, 3)
  })

  it('attribute names in another case: ours finds them (RFC 7643 §2.1); scim-patch adds a new key', () => {
    const operations = [{ op: 'replace', path: 'DisplayName', value: 'Ana S.' }]
    assert.equal(applyPatch(USER, user, patch(...operations)).displayName, 'Ana S.')
    const theirs = oracle(user, operations)
    assert.equal(theirs.displayName, 'Ana Souza')
    assert.equal(theirs.DisplayName, 'Ana S.')
  })
})

describe('a Group PATCH that names its members (membersNamedByPatch)', () => {
  const PEOPLE = [ANA, BRUNO, CARLA, 'b3c4d5e6-f7a8-4b9c-8d0e-1f2a3b4c5d6e']
  const groupOf = (ids: readonly string[]) =>
    groupResource(
      {
        id: TEAM,
        name: 'Vendas',
        externalId: null,
        createdAt: new Date('2026-01-01T12:00:00.000Z'),
        updatedAt: new Date('2026-01-02T12:00:00.000Z'),
        version: 'v1',
        members: ids.map((id) => ({ id, name: `Pessoa ${id.slice(0, 4)}` })),
      },
      BASE,
    )
  /** The member ids after the PATCH, or the refusal's scimType. */
  const outcome = (members: readonly string[], body: unknown): string[] | string => {
    try {
      return groupFields(applyPatch(GROUP, groupOf(members), body)).memberIds.sort()
    } catch (error) {
      if (error instanceof ScimError) return `${error.status} ${error.scimType}`
      throw error
    }
  }
  const id = fc.oneof(
    fc.constantFrom(...PEOPLE),
    fc.constantFrom(...PEOPLE).map((person) => person.toUpperCase()),
    fc.constantFrom('x', ''),
  )
  const operation = fc.oneof(
    fc.record({
      op: fc.constantFrom('add', 'Add'),
      path: fc.constantFrom('members', 'Members'),
      value: fc.array(
        id.map((value) => ({ value })),
        { maxLength: 3 },
      ),
    }),
    fc.record({
      op: fc.constantFrom('remove', 'Remove'),
      path: fc.constantFrom('members'),
      value: fc.array(
        id.map((value) => ({ value })),
        { maxLength: 3 },
      ),
    }),
    id.map((value) => ({ op: 'remove', path: `members[value eq "${value}"]` })),
    fc.constantFrom(
      { op: 'replace', path: 'displayName', value: 'Vendas Sul' },
      { op: 'replace', value: { id: TEAM, displayName: 'Vendas Norte' } },
      { op: 'replace', path: 'externalId', value: 'grp-vendas' },
    ),
  )

  it('gives on the Group with only the named members what it gives on the whole Group (property)', () => {
    fc.assert(
      fc.property(
        fc.subarray(PEOPLE),
        fc.array(operation, { minLength: 1, maxLength: 4 }),
        (members, operations) => {
          const body = patch(...operations)
          const named = membersNamedByPatch(body)
          assert.ok(named !== null, 'every operation here names its members')
          const wanted = new Set(named.map((value) => value.toLowerCase()))
          const some = members.filter((member) => wanted.has(member))
          const whole = outcome(members, body)
          const part = outcome(some, body)
          if (typeof whole === 'string') return assert.equal(part, whole)
          assert.ok(typeof part !== 'string', `${String(part)} on the part, not on the whole`)
          // The part's change, made to the whole Group: what the whole Group's PATCH made.
          const joined = part.filter((member) => !some.includes(member))
          const left = some.filter((member) => !part.includes(member))
          const made = [...members.filter((member) => !left.includes(member)), ...joined].sort()
          assert.deepEqual(made, whole)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('is null when an operation can reach members it does not name', () => {
    for (const operation of [
      { op: 'replace', path: 'members', value: [{ value: ANA }] },
      { op: 'remove', path: 'members' },
      { op: 'replace', value: { members: [{ value: ANA }] } },
      { op: 'remove', path: `members[value eq "${ANA}" or value eq "${BRUNO}"]` },
      { op: 'remove', path: 'members[display eq "Ana"]' },
      { op: 'replace', path: `members[value eq "${ANA}"].display`, value: 'Ana' },
      { op: 'add', path: 'members', value: [{ display: 'Ana' }] },
      { op: 'add', path: 'nonsense[', value: 'x' },
    ])
      assert.equal(membersNamedByPatch(patch(operation)), null, JSON.stringify(operation))
    assert.equal(membersNamedByPatch({ Operations: [] }), null)
    assert.deepEqual(
      membersNamedByPatch(
        patch(
          { op: 'add', path: 'members', value: [{ value: ANA }] },
          { op: 'remove', path: `members[value eq "${BRUNO}"]` },
          { op: 'replace', path: 'displayName', value: 'Vendas' },
        ),
      ),
      [ANA, BRUNO],
    )
  })
})
