import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { scimPatch, type ScimPatchOperation, type ScimResource as OracleResource } from 'scim-patch'
import SCIMMY from 'scimmy'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { CORPUS_FILES, readCorpus, withIds } from './corpus-sequences'
import {
  ERROR_URN,
  GROUP_SCHEMA_URN,
  newUser,
  scimClient,
  type ScimClient,
} from './scim-test-client'

/**
 * The corpus of Entra ID's and Okta's request sequences (corpus/*.json) replayed black-box
 * against the real /scim/v2 routes on this engine, in order, each step's status (and scimType)
 * as the corpus expects. Every answer is checked by independent implementations from npm:
 * - each User and Group in it against RFC 7643's schemas, by scimmy's definitions (a wrong
 *   type, a missing required attribute or a bad date throws), the ListResponse and Error
 *   messages by shape;
 * - each PATCH's result against scim-patch applied to the resource as GET read it before, on
 *   the attributes Painel keeps as sent (active, externalId, userName, displayName of a Group,
 *   the members' ids), after putting the directories' documented quirks into RFC form
 *   (capitalised ops, "False" strings, a removal of members by value): scim-patch takes neither
 *   (patch-operations.test.ts shows where it and RFC 7644 part).
 */

let api: ApiFixture
let scim: ScimClient

before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000 })
  scim = await scimClient(api, await api.signIn(ADMIN.email, ADMIN.password), 'Corpus')
})
after(() => api.close())

type Json = Record<string, unknown>

function assertValidResource(resource: Json, where: string) {
  const schemas = resource.schemas as string[]
  const schema = schemas.includes(GROUP_SCHEMA_URN) ? SCIMMY.Schemas.Group : SCIMMY.Schemas.User
  // Coercion throws on what RFC 7643 refuses: a wrong type, a missing required attribute.
  assert.doesNotThrow(
    () => schema.definition.coerce(resource, 'out'),
    `${where}: ${JSON.stringify(resource).slice(0, 300)}`,
  )
}

function assertValidAnswer(status: number, body: Json | undefined, where: string) {
  if (status === 204) return assert.equal(body, undefined, where)
  assert.ok(body, where)
  if (status >= 400) {
    assert.deepEqual(body.schemas, [ERROR_URN], where)
    assert.equal(body.status, String(status), where)
    assert.equal(typeof body.detail, 'string', where)
    return
  }
  const schemas = body.schemas as string[]
  if (schemas.includes('urn:ietf:params:scim:api:messages:2.0:ListResponse')) {
    assert.equal(typeof body.totalResults, 'number', where)
    assert.ok(Array.isArray(body.Resources), where)
    assert.equal(body.itemsPerPage, (body.Resources as unknown[]).length, where)
    for (const resource of body.Resources as Json[]) assertValidResource(resource, where)
    return
  }
  assertValidResource(body, where)
}

/** The operations in RFC form, for scim-patch (which reads only lower-case ops and booleans). */
function rfcOperations(operations: Json[]): ScimPatchOperation[] {
  const booleans = (value: unknown): unknown =>
    value === 'True' || value === 'False'
      ? value === 'True'
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, part]) => [key, booleans(part)]))
        : value
  return operations.flatMap((operation): ScimPatchOperation[] => {
    const op = String(operation.op).toLowerCase() as 'add' | 'remove' | 'replace'
    const path = operation.path as string | undefined
    if (op === 'remove' && path === 'members' && Array.isArray(operation.value))
      return (operation.value as { value: string }[]).map((member) => ({
        op: 'remove',
        path: `members[value eq "${member.value}"]`,
      }))
    return [
      {
        op,
        ...(path !== undefined && { path }),
        value: booleans(operation.value),
      } as ScimPatchOperation,
    ]
  })
}

/** What Painel keeps of a resource as the directory sent it. */
const kept = (resource: Json) => ({
  active: resource.active,
  externalId: resource.externalId,
  userName: typeof resource.userName === 'string' ? resource.userName.toLowerCase() : undefined,
  displayName: (resource.schemas as string[]).includes(GROUP_SCHEMA_URN)
    ? resource.displayName
    : undefined,
  members: ((resource.members as { value: string }[] | undefined) ?? [])
    .map((member) => member.value)
    .sort(),
})

for (const file of CORPUS_FILES) {
  describe(`the corpus ${file}, replayed against /scim/v2 on ${testStoreName()}`, async () => {
    const corpus = await readCorpus(file)
    let made = 0
    for (const sequence of corpus.sequences) {
      it(sequence.name, async () => {
        // A sequence that acts on a user or group it did not make gets fresh ones.
        made += 1
        const user = await scim.call(
          'POST',
          '/Users',
          newUser(`corpus-${file}-${made}@corp.example`),
        )
        const group = await scim.call('POST', '/Groups', {
          schemas: [GROUP_SCHEMA_URN],
          displayName: `Corpus ${file} ${made}`,
        })
        const ids: Record<string, string> = {
          user: user.json<{ id: string }>().id,
          group: group.json<{ id: string }>().id,
        }
        for (const [index, raw] of sequence.steps.entries()) {
          const step = withIds(raw, ids)
          const where = `${sequence.name}, step ${index + 1}: ${step.method} ${step.path}`
          const beforePatch =
            step.method === 'PATCH' && (step.expectStatus === 200 || step.expectStatus === 204)
              ? (await scim.call('GET', step.path)).json<Json>()
              : undefined
          const response = await scim.call(step.method, step.path, step.body)
          const body = response.body === '' ? undefined : response.json<Json>()
          assert.equal(response.statusCode, step.expectStatus, `${where}: ${response.body}`)
          if (response.statusCode !== 204)
            assert.match(
              String(response.headers['content-type']),
              /^application\/scim\+json/,
              where,
            )
          if (step.expectScimType) assert.equal(body?.scimType, step.expectScimType, where)
          assertValidAnswer(response.statusCode, body, where)
          if (step.saveAs && body) ids[step.saveAs] = String(body.id)
          if (beforePatch && response.statusCode < 300) {
            // A Group's PATCH answers 204: what it made is read back.
            const after = body ?? (await scim.call('GET', step.path)).json<Json>()
            if (response.statusCode === 204)
              assert.equal(response.headers.etag, (after.meta as Json).version, where)
            const operations = (step.body as { Operations: Json[] }).Operations
            const oracle = scimPatch(
              structuredClone(beforePatch) as unknown as OracleResource,
              rfcOperations(operations),
              { mutateDocument: false, treatMissingAsAdd: true },
            ) as unknown as Json
            assert.deepEqual(kept(after), kept(oracle), `${where}: scim-patch agrees`)
          }
        }
      })
    }
  })
}
