import assert from 'node:assert/strict'
import { scryptSync } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { before, describe, it, mock } from 'node:test'
import {
  decoyHash,
  hashingQueue,
  hashPassword,
  needsRehash,
  SCRYPT,
  useTestHashingCost,
  verifyPassword,
} from './passwords'
import { BEARER, isWellFormedToken, newToken, tokenHash } from './tokens'

describe('passwords', () => {
  // At the server's own cost, whatever a test file before this one in the process chose
  // (scripts/test-processes.ts; the server tests' fixture takes a cheaper one).
  before(() => useTestHashingCost(false))

  it('hash with scrypt, a fresh salt each time, and the parameters beside the hash', async () => {
    const one = await hashPassword('correct horse battery')
    const two = await hashPassword('correct horse battery')
    assert.notEqual(one, two)
    const [scheme, N, r, p, salt, key] = one.split('$')
    assert.equal(scheme, 'scrypt')
    assert.deepEqual([Number(N), Number(r), Number(p)], [SCRYPT.N, SCRYPT.r, SCRYPT.p])
    assert.equal(Buffer.from(salt ?? '', 'base64').length, SCRYPT.saltLength)
    assert.equal(Buffer.from(key ?? '', 'base64').length, SCRYPT.keyLength)
    assert.equal(needsRehash(one), false)
  })

  it('verify the right password and refuse a wrong one', async () => {
    const stored = await hashPassword('correct horse battery')
    assert.equal(await verifyPassword('correct horse battery', stored), true)
    assert.equal(await verifyPassword('correct horse batterY', stored), false)
    assert.equal(await verifyPassword('', stored), false)
  })

  it('treat canonically equal Unicode the same (NFC)', async () => {
    const stored = await hashPassword('café-senha')
    assert.equal(await verifyPassword('cafe\u0301-senha', stored), true)
  })

  it('verify a hash made with older, weaker parameters, and ask for a rehash', async () => {
    // A real hash with N = 1024: the parameters stored beside it are the ones used to check it.
    const salt = Buffer.from('saltsaltsaltsalt')
    const key = scryptSync('senha-de-antes', salt, 64, { N: 1024, r: 8, p: 1 })
    const weak = `scrypt$1024$8$1$${salt.toString('base64')}$${key.toString('base64')}`
    assert.equal(needsRehash(weak), true)
    assert.equal(await verifyPassword('senha-de-antes', weak), true)
    assert.equal(await verifyPassword('outra-senha', weak), false)
    assert.equal(needsRehash(await hashPassword('senha-de-agora')), false)
  })

  it('match nothing against a malformed hash', async () => {
    for (const stored of ['', 'plain', 'scrypt$x$8$1$a$b', 'bcrypt$2$...', 'scrypt$16384$8$1$$']) {
      assert.equal(await verifyPassword('anything', stored), false, stored)
    }
  })

  it('spend a real check on an empty hash (an account a sign-in provider made has no password)', async () => {
    await decoyHash()
    const run = mock.method(hashingQueue, 'run')
    try {
      assert.equal(await verifyPassword('anything', ''), false)
      assert.equal(run.mock.callCount(), 1, 'one scrypt run, as for a wrong password')
    } finally {
      run.mock.restore()
    }
  })

  it('have a decoy that matches nothing and costs the same work', async () => {
    const decoy = await decoyHash()
    assert.equal(decoy, await decoyHash())
    assert.equal(needsRehash(decoy), false)
    assert.equal(await verifyPassword('', decoy), false)
  })

  it('have a decoy at the cost in effect, made again when it changes', async () => {
    const costOf = async () => Number((await decoyHash()).split('$')[1])
    useTestHashingCost(true)
    try {
      assert.equal(await costOf(), 2 ** 10)
    } finally {
      useTestHashingCost(false)
    }
    // A decoy cheaper than a real hash would answer an unknown e-mail sooner than a wrong password.
    assert.equal(await costOf(), SCRYPT.N)
  })

  it('are made at the test cost only in test processes: the server never lowers it', async () => {
    useTestHashingCost(true)
    try {
      const [, N] = (await hashPassword('senha-de-teste')).split('$')
      assert.equal(Number(N), 2 ** 10)
      // A hash at the server's cost is not "older" than the test cost: not rehashed.
      assert.equal(needsRehash(scryptHashAt(SCRYPT.N)), false)
    } finally {
      useTestHashingCost(false)
    }
    assert.equal(needsRehash(scryptHashAt(2 ** 10)), true)
    const callers = (await readdir(join(import.meta.dirname, '..'), { recursive: true })).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.startsWith('test/') &&
        file !== 'accounts/passwords.ts',
    )
    for (const file of callers) {
      const source = await readFile(join(import.meta.dirname, '..', file), 'utf8')
      assert.doesNotMatch(source, /useTestHashingCost/, file)
    }
  })
})

function scryptHashAt(N: number): string {
  const salt = Buffer.alloc(SCRYPT.saltLength, 1)
  const key = Buffer.alloc(SCRYPT.keyLength, 2)
  return ['scrypt', N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join(
    '$',
  )
}

describe('tokens', () => {
  it('are 256 random bits in base64url, stored only as SHA-256', () => {
    const token = newToken()
    assert.equal(isWellFormedToken(token), true)
    assert.equal(BEARER.exec(`Bearer ${token}`)?.[1], token)
    assert.equal(isWellFormedToken(`${token}x`), false)
    assert.equal(Buffer.from(token, 'base64url').length, 32)
    assert.notEqual(newToken(), token)
    assert.match(tokenHash(token), /^[0-9a-f]{64}$/)
    assert.equal(tokenHash(token), tokenHash(token))
  })
})
