import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PERMISSIONS } from '../../common/permissions'
import { effectivePermissions } from './grant-rules'
import { outranks } from './rank'

const manager = {
  permissions: effectivePermissions(['staff.approve', 'staff.disable', 'staff.unlock']),
}

describe('rank', () => {
  it('a role holding any permission the actor lacks outranks them', () => {
    assert.ok(outranks([...PERMISSIONS], manager))
    assert.ok(outranks(['audit.view'], manager))
    assert.ok(outranks(['staff.unlock', 'staff.reset'], manager))
  })

  it('a role within the actor’s own does not, staff.view implied by any staff.*', () => {
    assert.ok(!outranks([], manager))
    assert.ok(!outranks(['staff.unlock'], manager))
    assert.ok(!outranks(['staff.view', 'staff.approve', 'staff.disable'], manager))
    assert.ok(!outranks([...PERMISSIONS], { permissions: [...PERMISSIONS] }))
  })
})
