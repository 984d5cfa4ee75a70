import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { TeamItem } from '../../../../common/api/roles'
import { teamBody, teamChanges, teamDraftOf, teamProblems } from './team-draft'

const sales: TeamItem = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Vendas',
  description: '',
  open: true,
  managers: [],
  managerCount: 0,
  memberCount: 3,
}

test('a new team: no name, closed to registrations', () => {
  const draft = teamDraftOf()
  assert.deepEqual(draft, { name: '', description: '', open: false })
  assert.deepEqual(teamProblems(draft), { name: 'Informe o nome do time.' })
})

test('the limits of the name and the description are said before sending', () => {
  assert.equal(teamProblems({ ...teamDraftOf(), name: ' \t ' }).name, 'Informe o nome do time.')
  assert.equal(
    teamProblems({ ...teamDraftOf(), name: 'v'.repeat(61) }).name,
    'O nome pode ter até 60 caracteres.',
  )
  assert.equal(
    teamProblems({ name: 'Vendas', description: 'd'.repeat(301), open: false }).description,
    'A descrição pode ter até 300 caracteres.',
  )
  assert.deepEqual(teamProblems({ name: 'Vendas', description: 'd'.repeat(300), open: true }), {})
})

test('the body is trimmed', () => {
  assert.deepEqual(teamBody({ name: ' Suporte ', description: ' N1 ', open: true }), {
    name: 'Suporte',
    description: 'N1',
    open: true,
  })
})

test('a change sends only what differs; nothing changed is null', () => {
  assert.equal(teamChanges(sales, teamDraftOf(sales)), null)
  assert.equal(teamChanges(sales, { ...teamDraftOf(sales), name: 'Vendas ' }), null)
  assert.deepEqual(teamChanges(sales, { ...teamDraftOf(sales), open: false }), { open: false })
  assert.deepEqual(teamChanges(sales, { name: 'Vendas Sul', description: 'RS', open: true }), {
    name: 'Vendas Sul',
    description: 'RS',
  })
})
