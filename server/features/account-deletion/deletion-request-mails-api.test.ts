import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RoleAnswer, TeamAnswer } from '../../../common/api/roles'
import type { StaffList } from '../../../common/api/staff'
import {
  ADMIN,
  apiFixture,
  PUBLIC_URL,
  type ApiFixture,
  type TestAccount,
} from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'
import { remindOfDeletionRequests } from './deletion-request-mails'

/**
 * Issue 43: a request for deletion reaches someone. Everyone who may decide it (staff.delete
 * reaching the person: the admins, a team's data manager for their team only) is mailed when it
 * arrives and reminded once, 5 days before its 15-day deadline if still open; the person is told
 * it arrived and by when it will be answered; the staff list the sidebar already reads counts
 * the open requests for those who may decide them.
 */

const RECEIVED = 'Painel: recebemos seu pedido de exclusão da conta'
const NOTICE = 'Painel: novo pedido de exclusão de conta'
const REMINDER = 'Painel: pedido de exclusão de conta aguardando resposta'
const DAY = 86_400_000

const clock = new TestClock()
let api: ApiFixture
let adminToken: string
let secondAdmin: TestAccount
let managerA: TestAccount & { token: string }
let managerB: TestAccount & { token: string }
let approverA: TestAccount
let teamA: string

const ok = async <T>(method: 'POST' | 'PATCH', url: string, body: object): Promise<T> => {
  const answer = await api.call(method, url, adminToken, body)
  assert.ok(answer.statusCode < 300, `${method} ${url}: ${answer.statusCode} ${answer.body}`)
  return answer.json<T>()
}

before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  teamA = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Time A' })).team.id
  const teamB = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Time B' })).team.id
  const dataManager = (
    await ok<RoleAnswer>('POST', '/api/roles', {
      name: 'Gestor de dados',
      description: '',
      permissions: ['staff.view', 'staff.delete'],
      scope: 'team',
    })
  ).role.id
  const approver = (
    await ok<RoleAnswer>('POST', '/api/roles', {
      name: 'Aprovador',
      description: '',
      permissions: ['staff.view', 'staff.approve'],
      scope: 'team',
    })
  ).role.id
  secondAdmin = await api.account('admin-dois', { role: 'admin' })
  const inTeam = async (label: string, roleId: string, teamId: string) => {
    const made = await api.account(label)
    await ok('PATCH', `/api/staff/${made.id}`, { roleId, teamId })
    return made
  }
  const a = await inTeam('gestor-a', dataManager, teamA)
  const b = await inTeam('gestor-b', dataManager, teamB)
  approverA = await inTeam('aprovador-a', approver, teamA)
  managerA = { ...a, token: await api.signIn(a.email, a.password) }
  managerB = { ...b, token: await api.signIn(b.email, b.password) }
})
after(() => api.close())

/** A staff member of team A who asks for deletion now. */
async function askingPerson(label: string) {
  // A fresh session: an earlier test moved the clock past the last one's end.
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  const person = await api.account(label, { name: `Pessoa ${label}` })
  await ok('PATCH', `/api/staff/${person.id}`, { teamId: teamA })
  const token = await api.signIn(person.email, person.password)
  const asked = await api.call('POST', '/api/me/deletion-request', token, {
    password: person.password,
  })
  assert.equal(asked.statusCode, 202, asked.body)
  await api.deliverMail()
  return person
}

/** A day as a person in Brasília reads it: 17/03/2026. */
const day = (at: Date) =>
  at.toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' }).replace(/\//g, '\\/')

const remind = async () => {
  await remindOfDeletionRequests(
    { db: api.database.db, outbox: api.outbox, config: { publicUrl: PUBLIC_URL } },
    clock.now(),
  )
  await api.deliverMail()
}

const mailed = (to: string, subject: string) => api.mail.sentWith(to, subject)
const openCount = async (token: string) => {
  const list = await api.get('/api/staff?status=pending&pageSize=1', token)
  assert.equal(list.statusCode, 200, list.body)
  return list.json<StaffList>().openDeletionRequests
}

describe(`who is told of a request for deletion (${testStoreName()})`, () => {
  it('mails the person the date of the answer, and everyone who may decide it', async () => {
    const asked = clock.now()
    const person = await askingPerson('exclusao-um')
    const by = day(new Date(asked.getTime() + 15 * DAY))
    const [ack, ...more] = mailed(person.email, RECEIVED)
    assert.ok(ack, 'the person is told')
    assert.equal(more.length, 0)
    assert.match(ack.text, /Olá, Pessoa exclusao-um\./)
    assert.match(ack.text, new RegExp(`até ${by}, no máximo 15 dias depois do pedido`))

    for (const decider of [ADMIN.email, secondAdmin.email, managerA.email]) {
      const [notice, ...again] = mailed(decider, NOTICE)
      assert.ok(notice, `${decider} is told`)
      assert.equal(again.length, 0)
      assert.match(notice.text, new RegExp(`Pessoa exclusao-um \\(${person.email}\\)`))
      assert.match(notice.text, new RegExp(`respondido até ${by}`))
      assert.match(notice.text, /https:\/\/painel\.example\.com\/#\/equipe\/pedidos-de-exclusao/)
    }
    // Another team's manager does not reach them; a role without staff.delete cannot decide.
    assert.deepEqual(mailed(managerB.email, NOTICE), [])
    assert.deepEqual(mailed(approverA.email, NOTICE), [])
    assert.deepEqual(mailed(person.email, NOTICE), [])

    // The sidebar's count, in the list it already reads.
    assert.equal(await openCount(adminToken), 1)
    assert.equal(await openCount(managerA.token), 1)
    assert.equal(await openCount(managerB.token), 0)
    const plain = await api.person('sem-exclusao')
    const list = await api.get('/api/staff?status=pending&pageSize=1', plain.token)
    assert.equal(list.statusCode, 403, 'staff without staff.view do not read the list')
  })

  it('reminds those who may decide once, 5 days before the deadline, while it is open', async () => {
    const asked = clock.now()
    const person = await askingPerson('exclusao-dois')
    const reminders = () =>
      [ADMIN.email, secondAdmin.email, managerA.email, managerB.email].map(
        (to) => mailed(to, REMINDER).filter((mail) => mail.text.includes(person.email)).length,
      )
    clock.advance(10 * DAY - 60_000)
    await remind()
    assert.deepEqual(reminders(), [0, 0, 0, 0], 'not before day 10')

    clock.advance(60_000)
    await remind()
    assert.deepEqual(reminders(), [1, 1, 1, 0])
    const [reminder] = mailed(managerA.email, REMINDER).filter((mail) =>
      mail.text.includes(person.email),
    )
    assert.match(reminder!.text, new RegExp(`feito em ${day(asked)}, ainda não foi respondido`))
    assert.match(
      reminder!.text,
      new RegExp(`O prazo termina em ${day(new Date(asked.getTime() + 15 * DAY))}`),
    )

    clock.advance(DAY)
    await remind()
    assert.deepEqual(reminders(), [1, 1, 1, 0], 'once')
  })

  it("decides by the roles' effective permissions: a custom role with staff.delete is told and may decide, one without it is not told", async () => {
    adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    const role = async (name: string, permissions: string[]) =>
      (
        await ok<RoleAnswer>('POST', '/api/roles', {
          name,
          description: '',
          permissions,
          scope: 'all',
        })
      ).role.id
    const holder = async (label: string, roleId: string) => {
      const made = await api.account(label)
      await ok('PATCH', `/api/staff/${made.id}`, { roleId })
      return { ...made, token: await api.signIn(made.email, made.password) }
    }
    // staff.delete alone: seeing the people comes with it (roles/grant-rules.ts), so its holder
    // is not outranked by someone who holds staff.view.
    const deleter = await holder('so-exclusao', await role('Só exclusão', ['staff.delete']))
    const disabler = await holder(
      'so-desativa',
      await role('Só desativação', ['staff.view', 'staff.disable']),
    )
    const person = await holder('leitora', await role('Leitura', ['staff.view']))
    const asked = await api.call('POST', '/api/me/deletion-request', person.token, {
      password: person.password,
    })
    assert.equal(asked.statusCode, 202, asked.body)
    await api.deliverMail()

    assert.equal(mailed(deleter.email, NOTICE).length, 1, 'the role that may decide is told')
    assert.deepEqual(mailed(disabler.email, NOTICE), [], 'a role without staff.delete is not')
    assert.equal(mailed(ADMIN.email, NOTICE).filter((m) => m.text.includes(person.email)).length, 1)
    // Told because it may: the anonymisation it was told of is its to make.
    const anonymised = await api.call('POST', `/api/staff/${person.id}/anonymise`, deleter.token)
    assert.equal(anonymised.statusCode, 204, anonymised.body)
  })

  it('reminds nobody of a request decided in time', async () => {
    const person = await askingPerson('exclusao-tres')
    const refused = await api.call(
      'POST',
      `/api/staff/${person.id}/deletion-request/refuse`,
      adminToken,
      { reason: 'Conta ainda necessária.' },
    )
    assert.equal(refused.statusCode, 204, refused.body)
    clock.advance(11 * DAY)
    await remind()
    assert.ok(
      !api.mail.sent.some((mail) => mail.subject === REMINDER && mail.text.includes(person.email)),
    )
  })
})
