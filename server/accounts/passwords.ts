import {
  randomBytes,
  scrypt as scryptOnPool,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto'
import { HashingQueue } from './hashing-queue'
import { HashingThreads } from './hashing-threads'

/**
 * Password hashing with scrypt (node:crypto), a fresh salt per password, and the parameters
 * stored beside the hash, so they can be raised later without breaking old hashes:
 *
 *   scrypt$<N>$<r>$<p>$<salt, base64>$<key, base64>
 *
 * N=2^15, r=8, p=1 is scrypt's "interactive login" setting (32 MiB, tens of milliseconds here).
 */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const

interface ScryptCost {
  N: number
  r: number
  p: number
}

/** New hashes are made at this cost, and older ones rehashed up to it: SCRYPT, in the server. */
let cost: ScryptCost = SCRYPT

/**
 * For test processes only (server/test/helpers.ts's testApp), N = 2^10 instead of 2^15: a
 * server test makes hundreds of accounts and sign-ins, and at the real cost most of its time
 * went to scrypt (server/features/sign-in/sign-in-limits-api.test.ts: 57 s, 17 s at this cost).
 * The hashes are still scrypt, stored and checked the same way. The tests about the parameters
 * or about answer timing keep SCRYPT; passwords.test.ts checks that the server never calls this.
 */
export function useTestHashingCost(on: boolean): void {
  cost = on ? { N: 2 ** 10, r: SCRYPT.r, p: SCRYPT.p } : SCRYPT
}

/**
 * Every hash of the process goes through one bounded queue (hashing-queue.ts), run on threads
 * of its own below the event loop's priority (hashing-threads.ts). Two at once; twenty waiting
 * is under a second of work.
 */
export const hashingQueue = new HashingQueue(2, 20)
const hashingThreads = new HashingThreads(hashingQueue.concurrency)

function scrypt(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return hashingThreads.scrypt(password.normalize('NFC'), salt, keyLength, options)
}

const maxmem = (N: number, r: number) => 256 * N * r

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength)
  const { N, r, p } = cost
  const { keyLength } = SCRYPT
  const key = await hashingQueue.run(() =>
    scrypt(password, salt, keyLength, { N, r, p, maxmem: maxmem(N, r) }),
  )
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')
}

/**
 * The same hash, made on libuv's thread pool instead of a hashing thread: for the first admin's
 * password while the server starts (accounts/first-admin.ts; main.ts begins it before the
 * server's modules load on a DATA_DIR with no database), before any request. A hashing thread is
 * a V8 isolate of its own, started for it and then kept for the life of the process: 10 MB of a
 * first start's memory and a share of its time (npm run bench -- --only startup / memory), for
 * one hash.
 */
export async function hashPasswordAtStart(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength)
  const { N, r, p } = cost
  const { keyLength } = SCRYPT
  const key = await new Promise<Buffer>((resolve, reject) =>
    scryptOnPool(
      password.normalize('NFC'),
      salt,
      keyLength,
      { N, r, p, maxmem: maxmem(N, r) },
      (error, derived) => (error ? reject(error) : resolve(derived)),
    ),
  )
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')
}

interface ParsedHash {
  N: number
  r: number
  p: number
  salt: Buffer
  key: Buffer
}

function parseHash(stored: string): ParsedHash | null {
  const [scheme, N, r, p, salt, key, ...rest] = stored.split('$')
  if (scheme !== 'scrypt' || rest.length > 0 || !salt || !key) return null
  const numbers = [N, r, p].map(Number)
  if (numbers.some((value) => !Number.isInteger(value) || value < 1)) return null
  const [n = 0, rr = 0, pp = 0] = numbers
  return { N: n, r: rr, p: pp, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') }
}

/** Whether the password matches, compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed || parsed.key.length === 0) {
    // No password at all (a person a sign-in provider created has an empty hash): the same
    // scrypt work as a wrong one, so the time of the answer does not tell such accounts apart.
    await verifyPassword(password, await decoyHash())
    return false
  }
  const { N, r, p, salt, key } = parsed
  const candidate = await hashingQueue.run(() =>
    scrypt(password, salt, key.length, { N, r, p, maxmem: maxmem(N, r) }),
  )
  return timingSafeEqual(candidate, key)
}

/** Whether a stored hash uses older parameters than today's: rehash it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored)
  return !parsed || parsed.N < cost.N || parsed.r < cost.r || parsed.p < cost.p
}

/**
 * A hash of nothing anyone knows, made once (again only if the cost changes: a test process
 * switches between the test cost and the real one). Checking a password against it when the
 * e-mail is unknown costs the same scrypt work as a wrong password, so timing does not tell which
 * it was.
 */
let decoy: { cost: ScryptCost; hash: Promise<string> } | null = null
export function decoyHash(): Promise<string> {
  if (decoy?.cost !== cost) {
    const made = { cost, hash: hashPassword(randomBytes(32).toString('base64')) }
    // A refusal (a busy queue) must not stay cached: the next call tries again.
    made.hash.catch(() => {
      if (decoy === made) decoy = null
    })
    decoy = made
  }
  return decoy.hash
}
