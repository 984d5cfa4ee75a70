import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PERMISSIONS } from '../../common/permissions'
import { effectivePermissions, mayGrant, mayPlaceIn } from './grant-rules'

const admin = { permissions: [...PERMISSIONS], scope: 'all' as const, teamId: null }
const manager = {
  permissions: effectivePermissions([
    'staff.approve',
    'staff.invite',
    'staff.disable',
    'staff.roles',
  ]),
  scope: 'team' as const,
  teamId: 'team-a',
}

describe('grant rules', () => {
  it('every staff.* permission brings staff.view; others do not', () => {
    assert.deepEqual(effectivePermissions(['staff.unlock']), ['staff.view', 'staff.unlock'])
    assert.deepEqual(effectivePermissions(['audit.view']), ['audit.view'])
    assert.deepEqual(effectivePermissions([]), [])
    assert.deepEqual(effectivePermissions(['staff.view', 'staff.reset']), [
      'staff.view',
      'staff.reset',
    ])
  })

  it('an admin grants any role, of any scope', () => {
    assert.ok(mayGrant(admin, { permissions: [...PERMISSIONS], scope: 'all' }))
    assert.ok(mayGrant(admin, { permissions: ['audit.view'], scope: 'team' }))
  })

  it('nobody grants a permission they do not hold', () => {
    assert.ok(!mayGrant(manager, { permissions: ['audit.view'], scope: 'team' }))
    assert.ok(
      !mayGrant(manager, { permissions: ['staff.approve', 'staff.mfa_reset'], scope: 'team' }),
    )
    assert.ok(mayGrant(manager, { permissions: ['staff.approve'], scope: 'team' }))
    // staff.view comes with staff.approve on both sides: held, so grantable.
    assert.ok(mayGrant(manager, { permissions: ['staff.view'], scope: 'team' }))
  })

  it('a team-scoped actor hands on no reach beyond a team, except a role that allows nothing', () => {
    assert.ok(!mayGrant(manager, { permissions: ['staff.approve'], scope: 'all' }))
    assert.ok(mayGrant(manager, { permissions: [], scope: 'all' }))
  })

  it('a team-scoped actor places people in their own team only', () => {
    assert.ok(mayPlaceIn(manager, 'team-a'))
    assert.ok(!mayPlaceIn(manager, 'team-b'))
    assert.ok(!mayPlaceIn(manager, null))
    assert.ok(!mayPlaceIn({ scope: 'team', teamId: null }, null))
    assert.ok(mayPlaceIn(admin, null))
    assert.ok(mayPlaceIn(admin, 'team-b'))
  })
})
