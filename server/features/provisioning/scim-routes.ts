import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { guardedRoutes } from '../../access/guarded-routes'
import { projectResource, type Projection } from './attribute-projection'
import type { ResourceKind } from './attribute-schema'
import {
  RESOURCE_KINDS,
  resourceType,
  schemaDocument,
  serviceProviderConfig,
} from './discovery-documents'
import { parseFilter } from './filter-parser'
import type { Filter } from './filter-syntax'
import { groupFields } from './group-input'
import { GROUP } from './group-schema'
import { listResponse, pageOf, type Page } from './list-response'
import { applyPatch, membersNamedByPatch } from './patch-operations'
import { ScimError } from './scim-error'
import { changeGroup, createGroup, deleteGroup, listGroups, readGroup } from './scim-groups'
import { SCIM_BODY_LIMIT_BYTES, scimBaseUrl, scimHttp, sendScim } from './scim-http'
import { scimToken } from './scim-token-guard'
import { changeUser, createUser, deleteUser, listUsers, readUser } from './scim-users'
import { userFields } from './user-input'
import { USER } from './user-schema'
import type { ScimResource } from './user-resource'

/**
 * /scim/v2 (RFC 7644; docs/provisioning.md): the discovery documents, Users and Groups, for a
 * provisioning token only (scim-token-guard.ts). Not part of /api: SCIM's own media type and
 * error shape (scim-http.ts), and not in the OpenAPI document. `x-permission: public` says only
 * that no session is asked for: the plugin's guard asks for the token, before anything else.
 */

type ListQuery = {
  filter?: string
  startIndex?: string
  count?: string
  attributes?: string
  excludedAttributes?: string
}

const scim = { 'x-permission': 'public', hide: true } as const
const withBody = { schema: scim, bodyLimit: SCIM_BODY_LIMIT_BYTES }

const projectionOf = (query: ListQuery): Projection => ({
  ...(typeof query.attributes === 'string' && { attributes: query.attributes }),
  ...(typeof query.excludedAttributes === 'string' && {
    excludedAttributes: query.excludedAttributes,
  }),
})

/** A query parameter given twice arrives as an array: the RFC knows one of each. */
function single(query: Record<string, unknown>): ListQuery {
  for (const [name, value] of Object.entries(query))
    if (typeof value !== 'string')
      throw new ScimError(400, 'invalidValue', `The parameter ${name} is given more than once.`)
  return query
}

/** Whether `members` would be in the answer: when not, Groups are read without them. */
function wantsMembers(projection: Projection): boolean {
  const named = (list: string | undefined) =>
    (list ?? '')
      .split(',')
      .map((name) =>
        name
          .trim()
          .toLowerCase()
          .replace(/^urn:.*:group:/, ''),
      )
      .some((name) => name === 'members' || name.startsWith('members.'))
  if (projection.attributes?.trim()) return named(projection.attributes)
  return !(
    named(projection.excludedAttributes) &&
    !(projection.excludedAttributes ?? '').toLowerCase().includes('members.')
  )
}

/**
 * What the routes of one resource type (Users, Groups) do with the store: `fields` reads a
 * representation (a PUT's body, or what a PATCH made of the current one) into the fields
 * `change` writes.
 */
interface ResourceStore<Fields> {
  kind: ResourceKind
  list: (
    filter: Filter | undefined,
    page: Page,
    projection: Projection,
  ) => Promise<{ total: number; resources: ScimResource[] }>
  read: (id: string, projection: Projection) => Promise<ScimResource>
  create: (request: FastifyRequest, body: unknown) => Promise<ScimResource>
  fields: (body: unknown, current: ScimResource) => Fields
  change: (
    request: FastifyRequest,
    id: string,
    next: (current: ScimResource) => Fields,
  ) => Promise<ScimResource>
  remove: (request: FastifyRequest, id: string) => Promise<void>
  /**
   * PATCH for a type that answers it its own way (Groups): `projection` is null when the request
   * names no attributes, and the answer is then 204. Without it, PATCH is `change` with the
   * patched representation, answered whole.
   */
  patch?: (
    request: FastifyRequest,
    id: string,
    body: unknown,
    projection: Projection | null,
  ) => Promise<ScimResource>
}

/**
 * The list and by-id routes of one resource type. The query is read before anything is written:
 * a request refused for it (a parameter given twice) changes nothing.
 */
function resourceRoutes<Fields>(app: FastifyInstance, store: ResourceStore<Fields>) {
  const { kind } = store
  type ById = { Params: { id: string } }
  const queryOf = (request: FastifyRequest) => single(request.query as Record<string, unknown>)
  const answer = (reply: FastifyReply, resource: ScimResource, query: ListQuery) => {
    const version = (resource.meta as { version?: string }).version
    if (version) reply.header('etag', version)
    return sendScim(reply, 200, projectResource(kind, resource, projectionOf(query)))
  }

  app.get(kind.endpoint, { schema: scim }, async (request, reply) => {
    const query = queryOf(request)
    const filter = query.filter !== undefined ? parseFilter(query.filter) : undefined
    const page = pageOf(query)
    const projection = projectionOf(query)
    const { total, resources } = await store.list(filter, page, projection)
    return sendScim(
      reply,
      200,
      listResponse(
        resources.map((resource) => projectResource(kind, resource, projection)),
        total,
        page.startIndex,
      ),
    )
  })
  app.post(kind.endpoint, withBody, async (request, reply) => {
    const resource = await store.create(request, request.body)
    return sendScim(
      reply.header('location', (resource.meta as { location: string }).location),
      201,
      resource,
    )
  })
  app.get<ById>(`${kind.endpoint}/:id`, { schema: scim }, async (request, reply) => {
    const query = queryOf(request)
    return answer(reply, await store.read(request.params.id, projectionOf(query)), query)
  })
  app.put<ById>(`${kind.endpoint}/:id`, withBody, async (request, reply) => {
    const query = queryOf(request)
    const changed = await store.change(request, request.params.id, (current) =>
      store.fields(request.body, current),
    )
    return answer(reply, changed, query)
  })
  app.patch<ById>(`${kind.endpoint}/:id`, withBody, async (request, reply) => {
    const query = queryOf(request)
    if (store.patch) {
      // RFC 7644 §3.5.2: 204 and the headers, or 200 and the resource (200 when the request
      // names attributes). A Group's whole resource is all its members: 2 MB for a team of
      // 12,000, read and written for a change of one (docs/provisioning.md).
      const shaped = query.attributes !== undefined || query.excludedAttributes !== undefined
      const patched = await store.patch(
        request,
        request.params.id,
        request.body,
        shaped ? projectionOf(query) : null,
      )
      if (shaped) return answer(reply, patched, query)
      const version = (patched.meta as { version?: string }).version
      if (version) reply.header('etag', version)
      return reply.code(204).send()
    }
    const changed = await store.change(request, request.params.id, (current) =>
      store.fields(applyPatch(kind, current, request.body), current),
    )
    return answer(reply, changed, query)
  })
  app.delete<ById>(`${kind.endpoint}/:id`, { schema: scim }, async (request, reply) => {
    await store.remove(request, request.params.id)
    return reply.code(204).send()
  })
}

export default guardedRoutes([scimToken], async (app, context) => {
  scimHttp(app)
  const base = scimBaseUrl(context.config.publicUrl)

  app.get('/ServiceProviderConfig', { schema: scim }, async (_request, reply) =>
    sendScim(reply, 200, serviceProviderConfig(base, `${context.config.publicUrl}/`)),
  )
  app.get('/ResourceTypes', { schema: scim }, async (_request, reply) => {
    const types = RESOURCE_KINDS.map((kind) => resourceType(kind, base))
    return sendScim(reply, 200, listResponse(types, types.length, 1))
  })
  app.get<{ Params: { name: string } }>(
    '/ResourceTypes/:name',
    { schema: scim },
    async (request, reply) => {
      const kind = RESOURCE_KINDS.find((kind) => kind.name === request.params.name)
      if (!kind) throw new ScimError(404, undefined, 'No such ResourceType.')
      return sendScim(reply, 200, resourceType(kind, base))
    },
  )
  app.get('/Schemas', { schema: scim }, async (_request, reply) => {
    const schemas = RESOURCE_KINDS.map((kind) => schemaDocument(kind, base))
    return sendScim(reply, 200, listResponse(schemas, schemas.length, 1))
  })
  app.get<{ Params: { id: string } }>('/Schemas/:id', { schema: scim }, async (request, reply) => {
    const kind = RESOURCE_KINDS.find((kind) => kind.core.id === request.params.id)
    if (!kind) throw new ScimError(404, undefined, 'No such Schema.')
    return sendScim(reply, 200, schemaDocument(kind, base))
  })

  resourceRoutes(app, {
    kind: USER,
    list: (filter, page) => listUsers(context.db, filter, page, base),
    read: (id) => readUser(context.db, id, base),
    create: (request, body) => createUser(context, request, body, base),
    fields: userFields,
    change: (request, id, next) => changeUser(context, request, id, next, base),
    remove: (request, id) => deleteUser(context, request, id, base),
  })
  resourceRoutes(app, {
    kind: GROUP,
    list: (filter, page, projection) =>
      listGroups(context.db, filter, page, base, wantsMembers(projection)),
    read: (id, projection) => readGroup(context.db, id, base, wantsMembers(projection)),
    create: (request, body) => createGroup(context, request, body, base),
    fields: (body) => groupFields(body),
    change: (request, id, next) => changeGroup(context, request, id, next, base),
    remove: (request, id) => deleteGroup(context, request, id),
    patch: (request, id, body, projection) =>
      changeGroup(
        context,
        request,
        id,
        (current) => groupFields(applyPatch(GROUP, current, body)),
        base,
        {
          named: membersNamedByPatch(body),
          answerWithMembers: projection !== null && wantsMembers(projection),
        },
      ),
  })
})
