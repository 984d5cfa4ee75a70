import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PERMISSIONS } from '../../../../common/permissions'
import { permissionGroups } from './permission-groups'

test('every permission of the catalogue is in exactly one group, in the catalogue’s order', () => {
  const listed = permissionGroups().flatMap((group) => group.permissions)
  assert.deepEqual([...listed].sort(), [...PERMISSIONS].sort())
  assert.equal(new Set(listed).size, listed.length)
  for (const { permissions } of permissionGroups()) {
    const positions = permissions.map((permission) => PERMISSIONS.indexOf(permission))
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
    )
  }
})

test('the groups come as the screen shows them: Pessoas, Auditoria, Administração', () => {
  assert.deepEqual(
    permissionGroups().map((group) => group.group),
    ['staff', 'audit', 'administration'],
  )
  const [staff, audit, administration] = permissionGroups()
  assert.ok(staff?.permissions.includes('staff.approve'))
  assert.deepEqual(audit?.permissions, ['audit.view', 'audit.export'])
  assert.deepEqual(administration?.permissions, [
    'roles.manage',
    'teams.manage',
    'provisioning.manage',
  ])
})
