import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import SCIMMY from 'scimmy'
import type { AttributeDefinition, ResourceKind } from './attribute-schema'
import { projectResource } from './attribute-projection'
import {
  RESOURCE_KINDS,
  resourceType,
  schemaDocument,
  serviceProviderConfig,
} from './discovery-documents'
import { groupResource, type GroupRecord } from './group-resource'
import { GROUP } from './group-schema'
import { DEFAULT_PAGE_SIZE, listResponse, MAX_PAGE_SIZE, pageOf } from './list-response'
import { applyPatch, PATCH_OP_SCHEMA } from './patch-operations'
import { ifMatchAllows, resourceVersion } from './resource-version'
import { badRequest, ScimError, scimErrorBody } from './scim-error'
import { splitName, userResource, type UserRecord } from './user-resource'
import { USER } from './user-schema'

/**
 * Every representation this folder makes, checked against an independent implementation of
 * RFC 7643's schemas: scimmy's definitions coerce each one (they throw on a wrong type, a
 * missing required attribute, a bad date) and must give it back unchanged.
 */

const BASE = 'https://painel.example/scim/v2'
const ANA: UserRecord = {
  id: '2819c223-7f76-453a-919d-413861904646',
  email: 'ana.souza@corp.test',
  name: 'Ana Souza',
  active: true,
  externalId: 'entra-1',
  createdAt: new Date('2026-01-10T12:00:00.000Z'),
  updatedAt: new Date('2026-01-11T12:00:00.000Z'),
  team: { id: 'e9e30dba-f08f-4109-8486-d5c6a331660a', name: 'Vendas' },
}
const TEAM: GroupRecord = {
  id: 'e9e30dba-f08f-4109-8486-d5c6a331660a',
  name: 'Vendas',
  externalId: null,
  createdAt: new Date('2026-01-01T12:00:00.000Z'),
  updatedAt: new Date('2026-01-02T12:00:00.000Z'),
  version: '3f9a1c07b2d4e6f8',
  members: [
    { id: '5f0d6a5e-9b7c-4c1a-8d2e-3f4a5b6c7d8e', name: 'Bruno Lima' },
    { id: ANA.id, name: ANA.name },
  ],
}

/** Sorted keys, so that scimmy's key order does not count. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([key, part]) => [key, canonical(part)]),
        )
      : value

function assertValid(kind: ResourceKind, resource: unknown) {
  const schema = kind === USER ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group
  const coerced: unknown = JSON.parse(JSON.stringify(schema.definition.coerce(resource, 'out')))
  assert.deepEqual(canonical(coerced), canonical(resource), 'scimmy gives it back unchanged')
}

const arbitraryUser = fc.record({
  id: fc.uuid(),
  email: fc.emailAddress().map((email) => email.toLowerCase()),
  name: fc.constantFrom('Ana', 'Ana Souza', 'Maria da Silva  Santos', 'Zé', "Ülle O'Brien"),
  active: fc.boolean(),
  externalId: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null }),
  createdAt: fc.date({
    min: new Date('2000-01-01'),
    max: new Date('2100-01-01'),
    noInvalidDate: true,
  }),
  updatedAt: fc.date({
    min: new Date('2000-01-01'),
    max: new Date('2100-01-01'),
    noInvalidDate: true,
  }),
  team: fc.option(
    fc.record({ id: fc.uuid(), name: fc.constantFrom('Vendas', 'Financeiro ação') }),
    { nil: null },
  ),
})

describe('userResource and groupResource', () => {
  it('make the User and Group of RFC 7643 §4 (scimmy agrees), with the expected content', () => {
    const user = userResource(ANA, BASE)
    assertValid(USER, user)
    assert.deepEqual(user.name, { formatted: 'Ana Souza', givenName: 'Ana', familyName: 'Souza' })
    assert.deepEqual(user.emails, [{ value: ANA.email, type: 'work', primary: true }])
    assert.deepEqual(user.groups, [
      { value: ANA.team!.id, $ref: `${BASE}/Groups/${ANA.team!.id}`, display: 'Vendas' },
    ])
    assert.match((user.meta as { version: string }).version, /^W\/"[A-Za-z0-9_-]{27}"$/)
    const group = groupResource(TEAM, BASE)
    assertValid(GROUP, group)
    assert.deepEqual(
      (group.members as { value: string }[]).map((member) => member.value),
      [TEAM.members[1]!.id, TEAM.members[0]!.id],
      'members in id order',
    )
    assertValid(GROUP, groupResource({ ...TEAM, members: [] }, BASE))
  })

  it('make valid Users from any record (property)', () => {
    fc.assert(
      fc.property(arbitraryUser, (record) => assertValid(USER, userResource(record, BASE))),
      { numRuns: 300 },
    )
  })

  it('still make valid resources after any PATCH Entra ID or Okta sends (scimmy agrees)', () => {
    const user = userResource(ANA, BASE)
    for (const operations of [
      [
        {
          op: 'Replace',
          value: { active: 'False', 'name.givenName': 'Ana', displayName: 'Ana S.' },
        },
      ],
      [{ op: 'Add', path: 'emails[type eq "home"].value', value: 'ana@home.test' }],
      [{ op: 'remove', path: 'externalId' }],
    ]) {
      assertValid(
        USER,
        applyPatch(USER, user, { schemas: [PATCH_OP_SCHEMA], Operations: operations }),
      )
    }
  })

  it('split a name at its first space, as the SQL does', () => {
    assert.deepEqual(splitName('Maria da Silva  Santos'), {
      givenName: 'Maria',
      familyName: 'da Silva  Santos',
    })
    assert.deepEqual(splitName('Zé'), { givenName: 'Zé' })
    assert.deepEqual(splitName('Ana  Souza'), { givenName: 'Ana', familyName: 'Souza' })
  })
})

describe('meta.version', () => {
  it('changes when anything shown changes, and only then', () => {
    const version = (record: UserRecord, base = BASE) =>
      (userResource(record, base).meta as { version: string }).version
    assert.equal(version(ANA), version({ ...ANA }))
    for (const changed of [
      { ...ANA, name: 'Ana S.' },
      { ...ANA, active: false },
      { ...ANA, team: null },
      { ...ANA, team: { ...ANA.team!, name: 'Vendas Sul' } },
      { ...ANA, updatedAt: new Date(ANA.updatedAt.getTime() + 1) },
    ])
      assert.notEqual(version(changed), version(ANA))
    assert.equal(
      resourceVersion({ b: 1, a: [{ y: 2, x: 1 }] }),
      resourceVersion({ a: [{ x: 1, y: 2 }], b: 1 }),
    )
  })

  it('lets If-Match pass with the same tag (weak or not) or *, and stops any other', () => {
    const tag = (userResource(ANA, BASE).meta as { version: string }).version
    assert.equal(ifMatchAllows(undefined, tag), true)
    assert.equal(ifMatchAllows(tag, tag), true)
    assert.equal(ifMatchAllows(tag.slice(2), tag), true)
    assert.equal(ifMatchAllows(`W/"other", ${tag}`, tag), true)
    assert.equal(ifMatchAllows('*', tag), true)
    assert.equal(ifMatchAllows('W/"other"', tag), false)
  })
})

describe('projectResource (RFC 7644 §3.9)', () => {
  const user = userResource(ANA, BASE)
  const group = groupResource(TEAM, BASE)

  it('keeps what `attributes` names, with schemas and id always', () => {
    assert.deepEqual(projectResource(USER, user, { attributes: 'userName' }), {
      schemas: user.schemas,
      id: user.id,
      userName: user.userName,
    })
    assert.deepEqual(
      projectResource(USER, user, {
        attributes:
          'Name.GivenName, urn:ietf:params:scim:schemas:core:2.0:User:emails.value,meta.lastModified, title, id',
      }),
      {
        schemas: user.schemas,
        id: user.id,
        name: { givenName: 'Ana' },
        emails: [{ value: ANA.email }],
        meta: { lastModified: '2026-01-11T12:00:00.000Z' },
      },
    )
    // scimmy fills in meta.resourceType when it is left out: checked for validity alone.
    SCIMMY.Schemas.User.definition.coerce(
      projectResource(USER, user, { attributes: 'userName,name.familyName' }),
      'out',
    )
  })

  it('drops what `excludedAttributes` names (never schemas nor id)', () => {
    const withoutMembers = projectResource(GROUP, group, { excludedAttributes: 'members' })
    assert.equal('members' in withoutMembers, false)
    assert.equal(withoutMembers.displayName, 'Vendas')
    SCIMMY.Schemas.Group.definition.coerce(withoutMembers, 'out')
    const withoutDisplay = projectResource(GROUP, group, {
      excludedAttributes: 'members.display,id,schemas',
    })
    assert.equal(withoutDisplay.id, group.id)
    assert.deepEqual(withoutDisplay.schemas, group.schemas)
    assert.deepEqual(
      (withoutDisplay.members as object[]).map((member) => Object.keys(member).sort()),
      [
        ['$ref', 'type', 'value'],
        ['$ref', 'type', 'value'],
      ],
    )
    assert.deepEqual(projectResource(GROUP, group, {}), group)
    assert.deepEqual(group.members !== undefined, true, 'the resource given is left as it was')
  })
})

describe('ListResponse and paging (RFC 7644 §3.4.2)', () => {
  it('reads startIndex and count as the RFC says, and refuses what is not a number', () => {
    assert.deepEqual(pageOf({}), { startIndex: 1, count: DEFAULT_PAGE_SIZE, offset: 0 })
    assert.deepEqual(pageOf({ startIndex: '0', count: '-5' }), {
      startIndex: 1,
      count: 0,
      offset: 0,
    })
    assert.deepEqual(pageOf({ startIndex: '11', count: '10' }), {
      startIndex: 11,
      count: 10,
      offset: 10,
    })
    assert.equal(pageOf({ count: '100000' }).count, MAX_PAGE_SIZE)
    for (const bad of ['ten', '1.5', '1e3', '99999999999999999999'])
      assert.equal(
        (() => {
          try {
            pageOf({ startIndex: bad })
          } catch (error) {
            return error instanceof ScimError && error.scimType
          }
        })(),
        'invalidValue',
        bad,
      )
  })

  it('is a ListResponse scimmy reads back the same, empty pages included', () => {
    const users = [userResource(ANA, BASE)]
    for (const list of [listResponse(users, 31, 11), listResponse([], 0, 1)]) {
      const theirs: unknown = JSON.parse(
        JSON.stringify(new SCIMMY.Messages.ListResponse(list as never)),
      )
      assert.deepEqual(canonical(theirs), canonical(list))
    }
    assert.deepEqual(listResponse([], 0, 1).Resources, [])
  })
})

describe('the error body (RFC 7644 §3.12)', () => {
  it('has the Error schema, the status as text, the scimType and the detail, as scimmy writes it', () => {
    const body = badRequest('invalidFilter', 'The filter is empty.').body()
    assert.deepEqual(body, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
      scimType: 'invalidFilter',
      detail: 'The filter is empty.',
    })
    const theirs: unknown = JSON.parse(
      JSON.stringify(
        new SCIMMY.Messages.ErrorResponse({
          status: 400,
          scimType: 'invalidFilter',
          detail: 'The filter is empty.',
        }),
      ),
    )
    assert.deepEqual(canonical(theirs), canonical(body))
    assert.deepEqual(scimErrorBody(404, 'No such User.'), {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '404',
      detail: 'No such User.',
    })
  })
})

describe('ServiceProviderConfig, ResourceTypes, Schemas (RFC 7643 §5–7)', () => {
  it('ServiceProviderConfig and the ResourceTypes pass scimmy unchanged', () => {
    const config = serviceProviderConfig(BASE)
    const coerced: unknown = JSON.parse(
      JSON.stringify(SCIMMY.Schemas.ServiceProviderConfig.definition.coerce(config, 'out')),
    )
    assert.deepEqual(canonical(coerced), canonical(config))
    assert.deepEqual(config.bulk, { supported: false, maxOperations: 0, maxPayloadSize: 0 })
    assert.equal(config.authenticationSchemes[0]!.type, 'oauthbearertoken')
    for (const kind of RESOURCE_KINDS) {
      const type = resourceType(kind, BASE)
      const theirs: unknown = JSON.parse(
        JSON.stringify(SCIMMY.Schemas.ResourceType.definition.coerce(type, 'out')),
      )
      assert.deepEqual(canonical(theirs), canonical(type))
    }
  })

  /** scimmy's attributes of the RFC's User and Group, in RFC 7643 §7's form. */
  const theirs = (kind: ResourceKind) =>
    (
      JSON.parse(
        JSON.stringify(
          (kind === USER ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group).definition.describe(),
        ),
      ) as { attributes: AttributeDefinition[] }
    ).attributes

  /** The characteristics that say how an attribute behaves (descriptions aside). */
  // caseExact and uniqueness are about text: RFC 7643 §8.7.1 gives them for strings and
  // references only, and so does scimmy. Compared for those.
  const behaviour = (attribute: AttributeDefinition): unknown => ({
    name: attribute.name,
    type: attribute.type,
    multiValued: attribute.multiValued,
    required: attribute.required,
    mutability: attribute.mutability,
    returned: attribute.returned,
    ...(['string', 'reference', 'binary'].includes(attribute.type)
      ? { caseExact: attribute.caseExact, uniqueness: attribute.uniqueness }
      : {}),
    ...(attribute.subAttributes
      ? {
          subAttributes: attribute.subAttributes
            .map(behaviour)
            .sort((a, b) => ((a as { name: string }).name < (b as { name: string }).name ? -1 : 1)),
        }
      : {}),
  })

  /** Where we part from the RFC's characteristics on purpose, and why. */
  const OURS: Record<string, string> = {
    'Group.displayName': 'team names are unique (case aside): uniqueness server, not none',
  }

  for (const kind of RESOURCE_KINDS) {
    it(`the ${kind.name} schema publishes the RFC's characteristics for what Painel keeps`, () => {
      const document = schemaDocument(kind, BASE)
      assert.equal(document.id, kind.core.id)
      const rfc = theirs(kind)
      for (const attribute of document.attributes as unknown as AttributeDefinition[]) {
        const reference = rfc.find((candidate) => candidate.name === attribute.name)
        assert.ok(reference, `${attribute.name} is an RFC attribute`)
        if (OURS[`${kind.name}.${attribute.name}`]) continue
        const ours = behaviour(attribute) as { subAttributes?: { name: string }[] }
        const expected = behaviour({
          ...reference,
          subAttributes: reference.subAttributes?.filter((sub) =>
            ours.subAttributes?.some((kept) => kept.name === sub.name),
          ),
        })
        assert.deepEqual(ours, expected, `${kind.name}.${attribute.name}`)
      }
      // What Painel drops is every other RFC attribute: none is forgotten, none invented.
      const named = new Set([...kind.core.attributes.map((a) => a.name), ...kind.core.discarded])
      assert.deepEqual([...named].sort(), rfc.map((attribute) => attribute.name).sort())
    })
  }
})
