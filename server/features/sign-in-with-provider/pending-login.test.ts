import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { roleColumns } from '../../db/role-columns'
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { nameColumns } from '../../db/name-columns'
import { testDatabase, testStoreName } from '../../test/test-database'
import {
  DatabaseHandOffStore,
  HAND_OFF_TTL_MS,
  HandOffCodes,
  MemoryHandOffStore,
  type HandOff,
} from './hand-off-codes'
import { PendingLoginSeal, type PendingLogin } from './pending-login'

const state = 'S'.repeat(43)
const now = new Date('2026-11-25T12:00:00Z')
const login: PendingLogin = {
  provider: 'corp',
  state,
  codeVerifier: 'v'.repeat(43),
  nonce: 'n'.repeat(43),
  redirectTarget: '/equipe',
  expiresAt: now.getTime() + 600_000,
}

describe('PendingLoginSeal', () => {
  const seal = new PendingLoginSeal('client-secret', 'corp')

  it('opens what it sealed, for its state, until it expires; the secrets are not readable', () => {
    const sealed = seal.seal(login)
    assert.deepEqual(seal.open(sealed, state, now), login)
    assert.ok(!Buffer.from(sealed, 'base64url').toString('latin1').includes('vvvv'))
    assert.equal(seal.open(sealed, 'T'.repeat(43), now), null, 'another state')
    assert.equal(seal.open(sealed, state, new Date(login.expiresAt)), null, 'expired')
  })

  it("refuses a changed byte, another provider's or secret's seal, and junk", () => {
    const sealed = seal.seal(login)
    const bytes = Buffer.from(sealed, 'base64url')
    bytes[20] = (bytes[20] ?? 0) ^ 1
    assert.equal(seal.open(bytes.toString('base64url'), state, now), null)
    assert.equal(new PendingLoginSeal('client-secret', 'other').open(sealed, state, now), null)
    assert.equal(new PendingLoginSeal('other-secret', 'corp').open(sealed, state, now), null)
    const otherProvider = new PendingLoginSeal('client-secret', 'corp').seal({
      ...login,
      provider: 'x',
    })
    assert.equal(seal.open(otherProvider, state, now), null)
    for (const junk of [undefined, '', 'a', '!!!', 'A'.repeat(5000)]) {
      assert.equal(seal.open(junk, state, now), null)
    }
  })
})

const handOff: HandOff = {
  accountId: '00000000-0000-4000-8000-000000000001',
  provider: 'corp',
  redirectTarget: null,
  providerMultiFactor: true,
}

describe('HandOffCodes', () => {
  it('a code is taken once, and not after 60 seconds (memory store)', async () => {
    let at = now.getTime()
    const codes = new HandOffCodes(new MemoryHandOffStore(), () => new Date(at))
    const code = await codes.issue(handOff)
    assert.match(code, /^[A-Za-z0-9_-]{43}$/)
    assert.deepEqual(await codes.redeem(code), handOff)
    assert.equal(await codes.redeem(code), undefined, 'used')
    const late = await codes.issue(handOff)
    at += HAND_OFF_TTL_MS
    assert.equal(await codes.redeem(late), undefined, 'expired')
    for (const junk of [undefined, 42, '', 'x'.repeat(43), 'a b']) {
      assert.equal(await codes.redeem(junk), undefined)
    }
  })

  it(`the database store: one of two concurrent exchanges wins (${testStoreName()})`, async () => {
    const database = await testDatabase()
    after(() => database.close())
    const account = await database.db
      .insertInto('accounts')
      .values({
        id: handOff.accountId,
        ...nameColumns('Ana'),
        email: 'ana@example.com',
        password_hash: 'x',
        ...roleColumns(BUILT_IN_ROLE_IDS.staff),
        status: 'active',
      })
      .returning('id')
      .executeTakeFirst()
    assert.ok(account)
    const store = new DatabaseHandOffStore(database.db)
    let at = now.getTime()
    const codes = new HandOffCodes(store, () => new Date(at))
    const code = await codes.issue(handOff)
    const both = await Promise.all([codes.redeem(code), codes.redeem(code)])
    assert.deepEqual(
      both.filter((taken) => taken !== undefined),
      [handOff],
    )
    const late = await codes.issue(handOff)
    at += HAND_OFF_TTL_MS
    assert.equal(await codes.redeem(late), undefined, 'expired')
    await store.prune(new Date(at))
  })
})
