import assert from 'node:assert/strict'
import { test } from 'node:test'
import { STAFF_BULK_ACTIONS } from '../../../../common/api/staff'
import { PERMISSIONS, type Permission } from '../../../../common/permissions'
import type { StaffMember } from '../../api/staff-list-api'
import {
  actionsFor,
  bulkActionsAllowed,
  grantableRoles,
  mayActOn,
  mayChangeRoleAndName,
  saysOutranked,
} from './staff-action-rules'

const person: StaffMember = {
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Bia',
  email: 'bia@painel.test',
  role: 'staff',
  status: 'active',
  invitationExpiresAt: null,
  createdAt: '2026-11-01T12:00:00.000Z',
  lastSignInAt: null,
  locked: true,
  mfa: true,
}
const holding =
  (...permissions: Permission[]) =>
  (permission: Permission) =>
    permissions.includes(permission)
const everything = holding(...PERMISSIONS)

test('with every permission and an older backend, every action as before (the role shortcut too)', () => {
  assert.deepEqual(actionsFor(person, { can: everything, hasRoles: false }), {
    primary: ['disable'],
    more: ['unlock', 'makeAdmin', 'signOut', 'reset', 'mfaOff'],
  })
})

test('with roles, no role shortcut: a role is changed on the account’s page', () => {
  assert.deepEqual(actionsFor(person, { can: everything, hasRoles: true }).more, [
    'unlock',
    'signOut',
    'reset',
    'mfaOff',
  ])
})

test('only what the role allows: a help desk unlocks, ends sessions and sends reset links', () => {
  const support = holding('staff.view', 'staff.unlock', 'staff.sessions', 'staff.reset')
  assert.deepEqual(actionsFor(person, { can: support, hasRoles: true }), {
    primary: [],
    more: ['unlock', 'signOut', 'reset'],
  })
})

test('a pending registration: approve and refuse need staff.approve', () => {
  const pending = { ...person, status: 'pending' as const }
  assert.deepEqual(actionsFor(pending, { can: holding('staff.approve'), hasRoles: true }), {
    primary: ['approve', 'refuse'],
    more: [],
  })
  assert.deepEqual(actionsFor(pending, { can: holding('staff.disable'), hasRoles: true }), {
    primary: [],
    more: [],
  })
})

test('an invitation: resending needs staff.invite, disabling staff.disable', () => {
  const invited = { ...person, status: 'invited' as const, locked: false, mfa: false }
  assert.deepEqual(actionsFor(invited, { can: holding('staff.invite'), hasRoles: true }), {
    primary: ['resendInvitation'],
    more: [],
  })
  const disabledInvite = {
    ...invited,
    status: 'disabled' as const,
    invitationExpiresAt: '2026-12-01T00:00:00.000Z',
  }
  assert.deepEqual(actionsFor(disabledInvite, { can: holding('staff.disable'), hasRoles: true }), {
    primary: ['enableInvitation'],
    more: [],
  })
})

test('an auditor (no staff permission) gets no action at all', () => {
  const auditor = holding('audit.view', 'audit.export')
  for (const status of ['pending', 'active', 'disabled', 'invited'] as const) {
    const { primary, more } = actionsFor({ ...person, status }, { can: auditor, hasRoles: true })
    assert.deepEqual([...primary, ...more], [], status)
  }
})

test('someone whose role outranks the viewer’s: no action in any state, whatever is held', () => {
  const above = { ...person, outranksYou: true }
  for (const status of ['pending', 'active', 'disabled', 'invited'] as const) {
    for (const hasRoles of [true, false]) {
      assert.deepEqual(
        actionsFor({ ...above, status }, { can: everything, hasRoles }),
        { primary: [], more: [] },
        `${status} ${String(hasRoles)}`,
      )
    }
  }
  // Not outranked, or a backend that does not say: the permissions decide, as before.
  for (const outranksYou of [false, undefined]) {
    assert.deepEqual(actionsFor({ ...person, outranksYou }, { can: everything, hasRoles: true }), {
      primary: ['disable'],
      more: ['unlock', 'signOut', 'reset', 'mfaOff'],
    })
  }
})

test('no checkbox, role, team or name to change on oneself or on someone who outranks the viewer', () => {
  const me = '55555555-5555-4555-8555-555555555555'
  const rights = { can: everything }
  assert.equal(mayActOn(person, me), true)
  assert.equal(mayActOn(person, undefined), true)
  assert.equal(mayActOn({ ...person, id: me }, me), false)
  assert.equal(mayActOn({ ...person, outranksYou: true }, me), false)
  assert.equal(mayChangeRoleAndName(person, me, rights), true)
  assert.equal(mayChangeRoleAndName(person, me, { can: holding('staff.disable') }), false)
  assert.equal(mayChangeRoleAndName({ ...person, outranksYou: true }, me, rights), false)
  assert.equal(mayChangeRoleAndName({ ...person, id: me }, me, rights), false)
})

test('the line saying why: to a viewer whose role acts on people, about someone above them', () => {
  const me = '55555555-5555-4555-8555-555555555555'
  const above = { ...person, outranksYou: true }
  const manager = holding('staff.view', 'staff.approve', 'staff.disable', 'staff.reset')
  assert.equal(saysOutranked(above, me, { can: manager }), true)
  assert.equal(saysOutranked(above, me, { can: holding('staff.roles') }), true)
  assert.equal(saysOutranked(above, me, { can: holding('staff.delete') }), true)
  // Nothing to say: they do not outrank the viewer, or it is not said, or it is oneself.
  assert.equal(saysOutranked(person, me, { can: manager }), false)
  assert.equal(saysOutranked({ ...person, outranksYou: undefined }, me, { can: manager }), false)
  assert.equal(saysOutranked({ ...above, id: me }, me, { can: manager }), false)
  // An auditor (or staff.view alone) acts on nobody: no line on every row.
  assert.equal(saysOutranked(above, me, { can: holding('audit.view', 'audit.export') }), false)
  assert.equal(saysOutranked(above, me, { can: holding('staff.view') }), false)
})

test('bulk actions follow the same permissions', () => {
  assert.deepEqual(bulkActionsAllowed(STAFF_BULK_ACTIONS, everything), [
    'approve',
    'refuse',
    'disable',
  ])
  assert.deepEqual(bulkActionsAllowed(STAFF_BULK_ACTIONS, holding('staff.disable')), ['disable'])
  assert.deepEqual(bulkActionsAllowed(STAFF_BULK_ACTIONS, holding('staff.view')), [])
})

test('the roles one may give: none beyond one’s own permissions or reach', () => {
  const role = (name: string, permissions: Permission[], scope: 'all' | 'team') => ({
    id: `00000000-0000-4000-8000-00000000000${name.length}`,
    name,
    description: '',
    permissions,
    scope,
    builtIn: false,
    peopleCount: 0,
  })
  const roles = [
    role('Administrador', [...PERMISSIONS], 'all'),
    role('Equipe', [], 'all'),
    role('Gestor', ['staff.view', 'staff.approve'], 'team'),
    role('Suporte', ['staff.view', 'staff.unlock'], 'all'),
  ]
  const names = (list: { name: string }[]) => list.map((item) => item.name)
  assert.deepEqual(names(grantableRoles(roles, { can: everything, scope: 'all' })), [
    'Administrador',
    'Equipe',
    'Gestor',
    'Suporte',
  ])
  const manager = holding('staff.view', 'staff.approve', 'staff.unlock', 'staff.roles')
  // Suporte's permissions are the manager's, but it reaches everyone: not theirs to give.
  assert.deepEqual(names(grantableRoles(roles, { can: manager, scope: 'team' })), [
    'Equipe',
    'Gestor',
  ])
})
