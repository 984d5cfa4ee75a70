import { expect, type APIRequestContext } from '@playwright/test'
import type { RoleBody, RoleList, TeamBody, TeamList } from '../../common/api/roles'
import type { Permission } from '../../common/permissions'
import { apiSignIn, createStaff } from './accounts'
import { e2e } from './test-env'

/**
 * `npm run screenshots`' roles, teams and people (e2e/screenshots/): made through the API on the
 * screenshot server's fresh data, each only if it is not there yet (a run that failed half-way
 * and was started again finds the first half), so that Papéis, a role's page and Times show
 * what a panel in use would. docs/roles-and-teams.md says what each permission and scope means.
 */

const TEAMS: TeamBody[] = [
  { name: 'Atendimento', description: 'Suporte aos clientes por telefone e chat', open: true },
  { name: 'Financeiro', description: 'Contas a pagar e a receber', open: false },
  { name: 'Operações', description: 'Logística e estoque', open: true },
]

/** The custom role whose page (its permission matrix) is photographed. */
export const MANAGER_ROLE = 'Gestor de equipe'
const ROLES: RoleBody[] = [
  {
    name: MANAGER_ROLE,
    description: 'Aprova cadastros e cuida das contas do próprio time',
    scope: 'team',
    permissions: [
      'staff.view',
      'staff.approve',
      'staff.invite',
      'staff.disable',
      'staff.unlock',
      'staff.sessions',
      'staff.reset',
      'dashboard.team',
    ] satisfies Permission[],
  },
  {
    name: 'Auditoria interna',
    description: 'Lê a equipe e o registro de auditoria, sem mudar nada',
    scope: 'all',
    permissions: ['staff.view', 'audit.view', 'audit.export'] satisfies Permission[],
  },
]

/** Real accounts, so that the roles and teams have holders, members and managers. */
const PEOPLE = [
  { name: 'Ana Souza', email: 'ana.souza@empresa.com.br', role: MANAGER_ROLE, team: 'Atendimento' },
  {
    name: 'Bruno Almeida',
    email: 'bruno.almeida@empresa.com.br',
    role: 'Equipe',
    team: 'Atendimento',
  },
  {
    name: 'Diego Lima',
    email: 'diego.lima@empresa.com.br',
    role: MANAGER_ROLE,
    team: 'Financeiro',
  },
  {
    name: 'Fábio Nunes',
    email: 'fabio.nunes@empresa.com.br',
    role: 'Auditoria interna',
    team: null,
  },
]

export interface Scene {
  /** The first admin's session, one for the whole run (each sign-in is a session and events). */
  adminToken: string
  roleIds: Record<string, string>
  teamIds: Record<string, string>
}

async function call(
  api: APIRequestContext,
  headers: Record<string, string>,
  method: 'get' | 'post' | 'patch',
  path: string,
  data?: unknown,
): Promise<unknown> {
  const response = await api[method](path, { headers, data })
  expect(response.ok(), `${method.toUpperCase()} ${path}: ${await response.text()}`).toBe(true)
  return response.json()
}

let made: Promise<Scene> | undefined
/** The scene, made once per worker (and looked up, not made again, by a later worker). */
export function screenshotScene(api: APIRequestContext): Promise<Scene> {
  made ??= makeScene(api)
  return made
}

async function makeScene(api: APIRequestContext): Promise<Scene> {
  const adminToken = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
  const headers = { authorization: `Bearer ${adminToken}` }

  const { teams } = (await call(api, headers, 'get', '/api/teams')) as TeamList
  for (const team of TEAMS.filter(({ name }) => !teams.some((known) => known.name === name)))
    teams.push(
      (
        (await call(api, headers, 'post', '/api/teams', team)) as {
          team: TeamList['teams'][number]
        }
      ).team,
    )
  const { roles } = (await call(api, headers, 'get', '/api/roles')) as RoleList
  for (const role of ROLES.filter(({ name }) => !roles.some((known) => known.name === name)))
    roles.push(
      (
        (await call(api, headers, 'post', '/api/roles', role)) as {
          role: RoleList['roles'][number]
        }
      ).role,
    )
  const scene: Scene = {
    adminToken,
    roleIds: Object.fromEntries(roles.map(({ name, id }) => [name, id])),
    teamIds: Object.fromEntries(teams.map(({ name, id }) => [name, id])),
  }

  for (const person of PEOPLE) {
    const found = (await call(
      api,
      headers,
      'get',
      `/api/staff?q=${encodeURIComponent(person.email)}`,
    )) as { items: { id: string; email: string }[] }
    if (found.items.some(({ email }) => email === person.email)) continue
    const { id } = await createStaff(api, { name: person.name, email: person.email })
    await call(api, headers, 'patch', `/api/staff/${id}`, {
      roleId: scene.roleIds[person.role],
      ...(person.team ? { teamId: scene.teamIds[person.team] } : {}),
    })
  }
  return scene
}
