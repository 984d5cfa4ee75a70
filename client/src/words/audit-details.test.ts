import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditRoleNames, auditStatusNames } from '../../../common/audit-details'
import { adminMessages } from './admin-messages'

describe('the audit details and the Equipe screen', () => {
  it('name statuses and roles with the same words', () => {
    assert.deepEqual(auditStatusNames, adminMessages.statuses)
    assert.deepEqual(auditRoleNames, adminMessages.roles)
  })
})
