import { expect, type APIRequestContext } from '@playwright/test'
import type { Permission, RoleScope } from '../../common/permissions'
import { adminHeaders } from './accounts'

/**
 * Teams and roles made through the API as the first admin, and people placed in them: the scene
 * of a test about what a role or a team changes (docs/roles-and-teams.md).
 */

/** A name no other run uses (the e2e database is shared by the suites): `name` and a suffix. */
export const uniqueName = (name: string) =>
  `${name} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** A team, open for registration unless told; its id. */
export async function makeTeam(api: APIRequestContext, name: string, open = true): Promise<string> {
  const response = await api.post('/api/teams', {
    data: { name, open },
    headers: await adminHeaders(api),
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { team: { id: string } }).team.id
}

/** A custom role, with no description; its id. */
export async function makeRole(
  api: APIRequestContext,
  role: { name: string; permissions: readonly Permission[]; scope: RoleScope },
): Promise<string> {
  const response = await api.post('/api/roles', {
    data: { description: '', ...role },
    headers: await adminHeaders(api),
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { role: { id: string } }).role.id
}

/** Gives the person that role, and that team when one is given. */
export async function place(
  api: APIRequestContext,
  person: { id: string },
  roleId: string,
  teamId?: string,
): Promise<void> {
  const response = await api.patch(`/api/staff/${person.id}`, {
    data: { roleId, ...(teamId ? { teamId } : {}) },
    headers: await adminHeaders(api),
  })
  expect(response.status(), await response.text()).toBe(200)
}
