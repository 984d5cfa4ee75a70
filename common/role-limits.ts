/**
 * How long a role's or a team's name and description may be: the API's schemas
 * (common/api/roles.ts), the screens, SCIM's groups and the sign-in providers' mapped names
 * (server/config/auth-providers.ts) all hold to these. Plain numbers in a module of their own, so
 * that the configuration reads them without loading the API's schemas, and TypeBox with them,
 * before the first admin's hash is begun (server/main.ts).
 */
export const ROLE_NAME_MAX_LENGTH = 60
export const ROLE_DESCRIPTION_MAX_LENGTH = 300
export const TEAM_NAME_MAX_LENGTH = 60
