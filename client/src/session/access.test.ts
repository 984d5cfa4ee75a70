import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PERMISSIONS } from '../../../common/permissions'
import { accessOf, type UserWithAccess } from './access'

const base = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Ana',
  email: 'ana@painel.test',
  status: 'active',
  createdAt: '2026-11-01T12:00:00.000Z',
} as const

test('an older backend (no access): an admin may do everything, at every scope', () => {
  const access = accessOf({ ...base, role: 'admin' })
  for (const permission of PERMISSIONS) assert.equal(access.can(permission), true, permission)
  assert.equal(access.scope, 'all')
  assert.equal(access.hasRoles, false)
  assert.equal(access.roleName, null)
  assert.equal(access.holdsAny, true)
})

test('an older backend (no access): anyone else may do nothing', () => {
  const access = accessOf({ ...base, role: 'staff' })
  for (const permission of PERMISSIONS) assert.equal(access.can(permission), false, permission)
  assert.equal(access.canAny(...PERMISSIONS), false)
  assert.equal(access.holdsAny, false)
})

test('with access, the role’s permissions alone, whatever the old role says', () => {
  const user: UserWithAccess = {
    ...base,
    // `role` stays "admin" only for Administrador; a stale value must not widen anything.
    role: 'admin',
    access: {
      roleId: '22222222-2222-4222-8222-222222222222',
      roleName: 'Gestor de equipe',
      scope: 'team',
      permissions: ['staff.view', 'staff.approve'],
      teamId: '33333333-3333-4333-8333-333333333333',
      teamName: 'Vendas',
    },
  }
  const access = accessOf(user)
  assert.equal(access.can('staff.view'), true)
  assert.equal(access.can('staff.approve'), true)
  assert.equal(access.can('roles.manage'), false)
  assert.equal(access.can('audit.view'), false)
  assert.equal(access.canAny('audit.view', 'staff.approve'), true)
  assert.equal(access.scope, 'team')
  assert.equal(access.roleName, 'Gestor de equipe')
  assert.equal(access.teamName, 'Vendas')
  assert.equal(access.hasRoles, true)
  assert.equal(access.holdsAny, true)
})

test('with access and no permission (Equipe): nothing beyond one’s own account', () => {
  const access = accessOf({
    ...base,
    role: 'staff',
    access: {
      roleId: '00000000-0000-4000-8000-000000000002',
      roleName: 'Equipe',
      scope: 'all',
      permissions: [],
      teamId: null,
      teamName: null,
    },
  })
  assert.equal(access.canAny(...PERMISSIONS), false)
  assert.equal(access.holdsAny, false)
  assert.equal(access.roleName, 'Equipe')
})

test('nobody signed in: nothing is allowed', () => {
  const access = accessOf(null)
  assert.equal(access.canAny(...PERMISSIONS), false)
})
