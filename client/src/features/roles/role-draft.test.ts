import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { RoleItem } from '../../../../common/api/roles'
import { draftOf, roleBody, roleChanges, roleProblems } from './role-draft'

const manager: RoleItem = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Gestor de equipe',
  description: 'Aprova o próprio time',
  permissions: ['staff.approve', 'staff.view'],
  scope: 'team',
  builtIn: false,
  peopleCount: 2,
}

test('a new role: no name, no permission, every person in reach', () => {
  const draft = draftOf()
  assert.equal(draft.name, '')
  assert.equal(draft.permissions.size, 0)
  assert.equal(draft.scope, 'all')
  assert.deepEqual(roleProblems(draft), { name: 'Informe o nome do papel.' })
})

test('a name of spaces is no name; too long a name or description is said', () => {
  assert.equal(roleProblems({ ...draftOf(), name: '   ' }).name, 'Informe o nome do papel.')
  assert.equal(
    roleProblems({ ...draftOf(), name: 'x'.repeat(61) }).name,
    'O nome pode ter até 60 caracteres.',
  )
  assert.deepEqual(roleProblems({ ...draftOf(), name: `  ${'x'.repeat(60)}  ` }), {})
  assert.equal(
    roleProblems({ ...draftOf(), name: 'Ok', description: 'd'.repeat(301) }).description,
    'A descrição pode ter até 300 caracteres.',
  )
})

test('the body is trimmed and its permissions come in the catalogue’s order', () => {
  const body = roleBody({
    name: '  Auditoria  ',
    description: ' lê o registro ',
    permissions: new Set(['audit.export', 'audit.view']),
    scope: 'all',
  })
  assert.deepEqual(body, {
    name: 'Auditoria',
    description: 'lê o registro',
    permissions: ['audit.view', 'audit.export'],
    scope: 'all',
  })
})

test('a change sends only what differs; the same permissions in another order are no change', () => {
  assert.equal(roleChanges(manager, draftOf(manager)), null)
  assert.equal(
    roleChanges(manager, { ...draftOf(manager), name: ' Gestor de equipe ' }),
    null,
    'spaces around the name are no change',
  )
  const draft = draftOf(manager)
  assert.deepEqual(
    roleChanges(manager, {
      ...draft,
      permissions: new Set([...draft.permissions, 'staff.unlock']),
      scope: 'all',
    }),
    { permissions: ['staff.view', 'staff.approve', 'staff.unlock'], scope: 'all' },
  )
  assert.deepEqual(roleChanges(manager, { ...draft, description: '' }), { description: '' })
})
