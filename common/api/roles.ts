import { Type, type Static } from 'typebox'
import { PERMISSIONS, ROLE_SCOPES } from '../permissions'
import {
  ROLE_DESCRIPTION_MAX_LENGTH,
  ROLE_NAME_MAX_LENGTH,
  TEAM_NAME_MAX_LENGTH,
} from '../role-limits'

/**
 * Roles and teams (docs/roles-and-teams.md). Built-in roles: "Administrador"
 * (every permission, scope all) and "Equipe" (none); the old `role` of an account stays readable
 * as `admin` for Administrador and `staff` for every other role.
 *
 * | call                          | answers                                                     |
 * | ----------------------------- | ----------------------------------------------------------- |
 * | GET /api/permissions          | 200 PermissionList                                          |
 * | GET /api/roles                | 200 RoleList                                                |
 * | POST /api/roles               | 201 RoleAnswer; 400; 409 role_name_taken                    |
 * | PATCH /api/roles/:id          | 200 RoleAnswer; 404; 409 built_in_role / role_name_taken    |
 * | DELETE /api/roles/:id         | 204; 404; 409 built_in_role / role_in_use                   |
 * | GET /api/teams                | 200 TeamList                                                |
 * | POST /api/teams               | 201 TeamAnswer; 400; 409 team_name_taken                    |
 * | PATCH /api/teams/:id          | 200 TeamAnswer; 404; 409 team_name_taken                    |
 * | DELETE /api/teams/:id         | 204 (its people keep their accounts, with no team); 404     |
 */

const closed = { additionalProperties: false } as const

/** The `:id` of PATCH and DELETE /api/roles/:id and /api/teams/:id. */
export const IdParamsSchema = Type.Object(
  { id: Type.String({ format: 'uuid', maxLength: 36 }) },
  closed,
)

export const PermissionSchema = Type.Enum([...PERMISSIONS])
export const RoleScopeSchema = Type.Enum([...ROLE_SCOPES], {
  description: 'all: every person; team: only the people of the holder’s own team',
})

export const PermissionListSchema = Type.Object(
  {
    permissions: Type.Array(
      Type.Object({ name: PermissionSchema, description: Type.String() }, closed),
    ),
  },
  closed,
)
export type PermissionList = Static<typeof PermissionListSchema>

export const PersonRefSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String() },
  closed,
)

export const RoleSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    permissions: Type.Array(PermissionSchema),
    scope: RoleScopeSchema,
    builtIn: Type.Boolean({ description: 'Administrador and Equipe: read-only, never deleted' }),
    peopleCount: Type.Integer({ minimum: 0 }),
  },
  closed,
)
export type RoleItem = Static<typeof RoleSchema>

export const RoleListSchema = Type.Object({ roles: Type.Array(RoleSchema) }, closed)
export type RoleList = Static<typeof RoleListSchema>
export const RoleAnswerSchema = Type.Object({ role: RoleSchema }, closed)
export type RoleAnswer = Static<typeof RoleAnswerSchema>

export const RoleBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: ROLE_NAME_MAX_LENGTH }),
    description: Type.String({ maxLength: ROLE_DESCRIPTION_MAX_LENGTH }),
    permissions: Type.Array(PermissionSchema, { uniqueItems: true }),
    scope: RoleScopeSchema,
  },
  closed,
)
export type RoleBody = Static<typeof RoleBodySchema>
export const RoleChangeBodySchema = Type.Partial(RoleBodySchema, { ...closed, minProperties: 1 })
export type RoleChangeBody = Static<typeof RoleChangeBodySchema>

export const TeamSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    open: Type.Boolean({
      description: 'published: a registration may choose it (GET /api/auth/teams lists these)',
    }),
    managers: Type.Array(PersonRefSchema, {
      maxItems: 5,
      description:
        'the first five by name of its managers: active members whose role has scope team and staff.approve',
    }),
    managerCount: Type.Integer({ minimum: 0, description: 'all of its managers' }),
    memberCount: Type.Integer({ minimum: 0 }),
  },
  closed,
)
export type TeamItem = Static<typeof TeamSchema>

export const TeamListSchema = Type.Object({ teams: Type.Array(TeamSchema) }, closed)
export type TeamList = Static<typeof TeamListSchema>
export const TeamAnswerSchema = Type.Object({ team: TeamSchema }, closed)
export type TeamAnswer = Static<typeof TeamAnswerSchema>

export const TeamBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TEAM_NAME_MAX_LENGTH }),
    description: Type.Optional(Type.String({ maxLength: ROLE_DESCRIPTION_MAX_LENGTH })),
    open: Type.Optional(Type.Boolean()),
  },
  closed,
)
export type TeamBody = Static<typeof TeamBodySchema>
export const TeamChangeBodySchema = Type.Partial(TeamBodySchema, { ...closed, minProperties: 1 })
export type TeamChangeBody = Static<typeof TeamChangeBodySchema>

/**
 * What the signed-in person may do, in GET /api/auth/me's `user.access` (the client shows only
 * the screens and actions it allows; the server is the judge on every call).
 */
export const AccessSchema = Type.Object(
  {
    roleId: Type.String({ format: 'uuid' }),
    roleName: Type.String(),
    scope: RoleScopeSchema,
    permissions: Type.Array(PermissionSchema),
    teamId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    teamName: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
)
export type Access = Static<typeof AccessSchema>
