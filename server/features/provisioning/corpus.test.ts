import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nameKey } from '../../db/name-key'
import type { ResourceKind } from './attribute-schema'
import { projectResource } from './attribute-projection'
import { CORPUS_FILES, readCorpus, withIds, type CorpusStep } from './corpus-sequences'
import { compileFilter } from './filter-evaluator'
import { parseFilter } from './filter-parser'
import { filterToSql } from './filter-to-sql'
import { groupFields } from './group-input'
import { groupResource } from './group-resource'
import { GROUP } from './group-schema'
import { groupSqlAttributes } from './group-sql-attributes'
import { pageOf } from './list-response'
import { applyPatch } from './patch-operations'
import { ScimError } from './scim-error'
import { userFields } from './user-input'
import { userResource, type ScimResource } from './user-resource'
import { USER } from './user-schema'
import { userSqlAttributes } from './user-sql-attributes'

/**
 * Every step of the corpus read as the server will read it, in order, over resources kept in
 * memory: a POST's body becomes a resource, a PATCH applies to what the sequence made so far
 * (so a removal by filter meets the member an earlier step added). A step expecting a 400 must
 * be refused with its scimType by these modules; any other must be read without a refusal (a
 * 404 or a 409 is the stores' to answer, in the wiring's replay).
 */

const BASE = 'https://painel.example/scim/v2'
const CREATED = new Date('2026-01-01T00:00:00.000Z')
let counter = 0
const newId = () => `4c6a8e0e-0000-4000-8000-${String((counter += 1)).padStart(12, '0')}`

/** What the steps so far made, by id. */
type Resources = Map<string, { kind: ResourceKind; resource: ScimResource }>

function made(
  kind: ResourceKind,
  id: string,
  body: unknown,
  resources: Resources,
  names: Map<string, string>,
): ScimResource {
  if (kind === USER) {
    const fields = userFields(body)
    names.set(id, fields.name)
    return userResource({ id, ...fields, createdAt: CREATED, updatedAt: CREATED, team: null }, BASE)
  }
  const fields = groupFields(body)
  return groupResource(
    {
      id,
      name: fields.name,
      externalId: fields.externalId,
      createdAt: CREATED,
      updatedAt: CREATED,
      version: 'corpus',
      members: fields.memberIds.map((member) => ({
        id: member,
        name: names.get(member) ?? 'Someone',
      })),
    },
    BASE,
  )
}

function read(
  step: CorpusStep,
  ids: Record<string, string>,
  resources: Resources,
  names: Map<string, string>,
): void {
  const url = new URL(step.path, 'https://painel.example')
  const [, endpoint, id] = url.pathname.split('/')
  const kind =
    endpoint === 'Users'
      ? USER
      : endpoint === 'Groups'
        ? GROUP
        : assert.fail(`unknown endpoint ${endpoint}`)
  const query = Object.fromEntries(url.searchParams)
  if (step.method === 'GET') {
    if (query.filter !== undefined) {
      const filter = parseFilter(query.filter)
      compileFilter(kind, filter)
      filterToSql(
        kind,
        filter,
        kind === USER ? userSqlAttributes('sqlite') : groupSqlAttributes(nameKey),
        'sqlite',
      )
    }
    pageOf(query)
    const sample = [...resources.values()].find((entry) => entry.kind === kind)?.resource
    if (sample) projectResource(kind, sample, query)
    return
  }
  if (step.method === 'DELETE') {
    resources.delete(id!)
    return
  }
  if (step.method === 'POST') {
    const created = newId()
    resources.set(created, { kind, resource: made(kind, created, step.body, resources, names) })
    if (step.saveAs) ids[step.saveAs] = created
    return
  }
  assert.match(id ?? '', /^[0-9a-f-]{36}$/, 'the step names a saved id')
  const current =
    resources.get(id!)?.resource ??
    made(
      kind,
      id!,
      kind === USER
        ? { schemas: [USER.core.id], userName: 'someone@corp.test', displayName: 'Someone' }
        : { schemas: [GROUP.core.id], displayName: 'Some team' },
      resources,
      names,
    )
  const next = step.method === 'PUT' ? step.body : applyPatch(kind, current, step.body)
  const kept = kind === USER ? userFields(next, current) : groupFields(next)
  assert.ok(kept)
  resources.set(id!, {
    kind,
    resource:
      step.method === 'PUT' ? made(kind, id!, step.body, resources, names) : (next as ScimResource),
  })
}

for (const file of CORPUS_FILES) {
  describe(`the corpus ${file}`, async () => {
    const corpus = await readCorpus(file)
    it('names its source and has sequences of well-formed steps', () => {
      assert.ok(corpus.source.length > 20)
      assert.ok(corpus.sequences.length > 0)
      for (const sequence of corpus.sequences)
        for (const step of sequence.steps) {
          assert.ok(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(step.method))
          assert.ok(step.path.startsWith('/Users') || step.path.startsWith('/Groups'), step.path)
          assert.equal(
            step.body !== undefined,
            ['POST', 'PUT', 'PATCH'].includes(step.method),
            step.path,
          )
          assert.equal(
            step.expectScimType !== undefined,
            step.expectStatus === 400 || step.expectStatus === 409,
            step.path,
          )
        }
    })

    for (const sequence of corpus.sequences) {
      it(`reads every step of "${sequence.name}" as its expectation says`, () => {
        const ids: Record<string, string> = { user: newId(), group: newId() }
        const resources: Resources = new Map()
        const names = new Map<string, string>()
        for (const [index, raw] of sequence.steps.entries()) {
          const step = withIds(raw, ids)
          const where = `step ${index + 1}: ${step.method} ${step.path}`
          assert.doesNotMatch(JSON.stringify(step), /\{\{\w+\}\}/, `${where} names only saved ids`)
          if (step.expectStatus === 400) {
            assert.throws(
              () => read(step, ids, resources, names),
              (error) =>
                error instanceof ScimError &&
                error.status === 400 &&
                error.scimType === step.expectScimType,
              where,
            )
            continue
          }
          try {
            read(step, ids, resources, names)
          } catch (error) {
            assert.fail(
              `${where}: ${error instanceof ScimError ? `${error.scimType}: ${error.detail}` : String(error)}`,
            )
          }
        }
      })
    }
  })
}
