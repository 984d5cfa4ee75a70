import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import {
  IdParamsSchema,
  PermissionListSchema,
  RoleAnswerSchema,
  RoleBodySchema,
  RoleChangeBodySchema,
  RoleListSchema,
} from '../../../common/api/roles'
import { PERMISSIONS, permissionDescriptions } from '../../../common/permissions'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { answerWithoutBody } from '../../http/answer-without-body'
import { acting } from '../../access/acting'
import { listRoles } from '../../roles/role-store'
import { changeRole, createRole, deleteRole } from './role-changes'

/**
 * The permission catalogue and the roles, under /api (common/api/roles.ts). Reading them is for
 * any signed-in person (names and counts, no one's data: the screens name roles everywhere);
 * shaping them needs roles.manage, within what the caller's own role holds (roles/grant-rules.ts).
 */
export default guardedRoutes([signedIn], async (app, context) => {
  app.get(
    '/permissions',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'The permission catalogue, each with its description in pt-BR',
        description:
          'Any signed-in person: the screens describe each permission of a role with these words.',
        security: bearer,
        response: { 200: PermissionListSchema, ...errorAnswers(401) },
      },
    },
    async () => ({
      permissions: PERMISSIONS.map((name) => ({ name, description: permissionDescriptions[name] })),
    }),
  )

  app.get(
    '/roles',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'The roles, with their permissions, scope and people count',
        description:
          'Any signed-in person (roles are named on every screen); the built-in ones have builtIn true.',
        security: bearer,
        response: { 200: RoleListSchema, ...errorAnswers(401) },
      },
    },
    async () => ({ roles: await listRoles(context.db) }),
  )

  app.post(
    '/roles',
    {
      schema: {
        'x-permission': 'roles.manage',
        summary: 'Create a role',
        description:
          '409 role_name_taken (names are unique, case aside); 403 role_not_grantable for permissions or a reach the caller does not hold.',
        security: bearer,
        body: RoleBodySchema,
        response: { 201: RoleAnswerSchema, ...errorAnswers(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const role = await createRole(context, acting(request), request.body)
      return reply.code(201).send({ role })
    },
  )

  app.patch(
    '/roles/:id',
    {
      schema: {
        'x-permission': 'roles.manage',
        summary: 'Change a role (not a built-in one)',
        description:
          '409 built_in_role for Administrador and Equipe; 409 role_name_taken; 403 role_not_grantable; 404.',
        security: bearer,
        params: IdParamsSchema,
        body: RoleChangeBodySchema,
        response: { 200: RoleAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({
      role: await changeRole(context, acting(request), request.params.id, request.body),
    }),
  )

  app.delete(
    '/roles/:id',
    {
      schema: {
        'x-permission': 'roles.manage',
        summary: 'Delete a role nobody holds',
        description: '409 built_in_role; 409 role_in_use while someone holds it; 404.',
        security: bearer,
        params: IdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteRole(context, acting(request), request.params.id)
      return answerWithoutBody(reply, 204)
    },
  )
})
