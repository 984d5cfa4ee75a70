import type { FastifyReply, FastifyRequest } from 'fastify'
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
import { groupFields } from './group-input'
import { GROUP } from './group-schema'
import { listResponse, pageOf } from './list-response'
import { applyPatch } from './patch-operations'
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

export default guardedRoutes([scimToken], async (app, context) => {
  scimHttp(app)
  const base = scimBaseUrl(context.config.publicUrl)
  const created = (reply: FastifyReply, resource: ScimResource) =>
    sendScim(
      reply.header('location', (resource.meta as { location: string }).location),
      201,
      resource,
    )
  const answer = (
    reply: FastifyReply,
    kind: ResourceKind,
    resource: ScimResource,
    query: ListQuery,
    status = 200,
  ) => {
    const version = (resource.meta as { version?: string }).version
    if (version) reply.header('etag', version)
    return sendScim(reply, status, projectResource(kind, resource, projectionOf(query)))
  }

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

  // Users
  app.get('/Users', { schema: scim }, async (request, reply) => {
    const query = single(request.query as Record<string, unknown>)
    const filter = query.filter !== undefined ? parseFilter(query.filter) : undefined
    const page = pageOf(query)
    const { total, resources } = await listUsers(context.db, filter, page, base)
    const projection = projectionOf(query)
    return sendScim(
      reply,
      200,
      listResponse(
        resources.map((resource) => projectResource(USER, resource, projection)),
        total,
        page.startIndex,
      ),
    )
  })
  app.post('/Users', withBody, async (request, reply) =>
    created(reply, await createUser(context, request, request.body, base)),
  )
  type ById = FastifyRequest<{ Params: { id: string } }>
  app.get<{ Params: { id: string } }>('/Users/:id', { schema: scim }, async (request, reply) =>
    answer(
      reply,
      USER,
      await readUser(context.db, request.params.id, base),
      single(request.query as Record<string, unknown>),
    ),
  )
  app.put<{ Params: { id: string } }>('/Users/:id', withBody, async (request: ById, reply) =>
    answer(
      reply,
      USER,
      await changeUser(
        context,
        request,
        request.params.id,
        (current) => userFields(request.body, current),
        base,
      ),
      single(request.query as Record<string, unknown>),
    ),
  )
  app.patch<{ Params: { id: string } }>('/Users/:id', withBody, async (request: ById, reply) =>
    answer(
      reply,
      USER,
      await changeUser(
        context,
        request,
        request.params.id,
        (current) => userFields(applyPatch(USER, current, request.body), current),
        base,
      ),
      single(request.query as Record<string, unknown>),
    ),
  )
  app.delete<{ Params: { id: string } }>('/Users/:id', { schema: scim }, async (request, reply) => {
    await deleteUser(context, request, request.params.id, base)
    return reply.code(204).send()
  })

  // Groups
  app.get('/Groups', { schema: scim }, async (request, reply) => {
    const query = single(request.query as Record<string, unknown>)
    const filter = query.filter !== undefined ? parseFilter(query.filter) : undefined
    const page = pageOf(query)
    const projection = projectionOf(query)
    const { total, resources } = await listGroups(
      context.db,
      filter,
      page,
      base,
      wantsMembers(projection),
    )
    return sendScim(
      reply,
      200,
      listResponse(
        resources.map((resource) => projectResource(GROUP, resource, projection)),
        total,
        page.startIndex,
      ),
    )
  })
  app.post('/Groups', withBody, async (request, reply) =>
    created(reply, await createGroup(context, request, request.body, base)),
  )
  app.get<{ Params: { id: string } }>('/Groups/:id', { schema: scim }, async (request, reply) =>
    answer(
      reply,
      GROUP,
      await readGroup(context.db, request.params.id, base),
      single(request.query as Record<string, unknown>),
    ),
  )
  app.put<{ Params: { id: string } }>('/Groups/:id', withBody, async (request: ById, reply) =>
    answer(
      reply,
      GROUP,
      await changeGroup(context, request, request.params.id, () => groupFields(request.body), base),
      single(request.query as Record<string, unknown>),
    ),
  )
  app.patch<{ Params: { id: string } }>('/Groups/:id', withBody, async (request: ById, reply) =>
    answer(
      reply,
      GROUP,
      await changeGroup(
        context,
        request,
        request.params.id,
        (current) => groupFields(applyPatch(GROUP, current, request.body)),
        base,
      ),
      single(request.query as Record<string, unknown>),
    ),
  )
  app.delete<{ Params: { id: string } }>(
    '/Groups/:id',
    { schema: scim },
    async (request, reply) => {
      await deleteGroup(context, request, request.params.id, base)
      return reply.code(204).send()
    },
  )
})
