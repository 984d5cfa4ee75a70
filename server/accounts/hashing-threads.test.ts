import assert from 'node:assert/strict'
import { scryptSync } from 'node:crypto'
import { describe, it } from 'node:test'
import { HashingThreads } from './hashing-threads'

describe('scrypt on the hashing threads', () => {
  const options = { N: 2 ** 10, r: 8, p: 1 }
  const salt = Buffer.from('0123456789abcdef')

  it('gives the key node:crypto gives, for more jobs than threads at once', async () => {
    const threads = new HashingThreads(2)
    const passwords = ['um', 'dois', 'três', 'quatro', 'cinco']
    const keys = await Promise.all(passwords.map((p) => threads.scrypt(p, salt, 32, options)))
    keys.forEach((key, i) => {
      assert.ok(Buffer.isBuffer(key))
      assert.deepEqual(key, scryptSync(passwords[i]!, salt, 32, options))
    })
  })

  it('rejects what scrypt rejects, and the thread goes on working', async () => {
    const threads = new HashingThreads(1)
    await assert.rejects(threads.scrypt('x', salt, 32, { N: 3, r: 8, p: 1 }))
    assert.deepEqual(
      await threads.scrypt('x', salt, 32, options),
      scryptSync('x', salt, 32, options),
    )
  })

  it('ends a thread left idle, and starts one again for the next job', async () => {
    const threads = new HashingThreads(2, 20)
    const keys = await Promise.all(['um', 'dois'].map((p) => threads.scrypt(p, salt, 32, options)))
    assert.equal(keys.length, 2)
    // Both were started, and both end once idle: no thread is left holding its memory.
    const deadline = Date.now() + 10_000
    while (threads.threads > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    assert.equal(threads.threads, 0, 'the idle threads ended')
    assert.deepEqual(
      await threads.scrypt('três', salt, 32, options),
      scryptSync('três', salt, 32, options),
    )
    assert.equal(threads.threads, 1)
  })

  it('does not end a thread that was given a job before its idle time ran out', async (t) => {
    // The idle time on a mocked clock: the test moves it, so a busy machine cannot.
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const threads = new HashingThreads(1, 1000)
    const hash = async (password: string) =>
      assert.deepEqual(
        await threads.scrypt(password, salt, 32, options),
        scryptSync(password, salt, 32, options),
      )
    await hash('um')
    t.mock.timers.tick(600)
    await hash('dois')
    // 1200 ms after the first job, 600 after the second: the first job's idle time is over, and
    // must no longer count.
    t.mock.timers.tick(600)
    assert.equal(threads.threads, 1, 'the thread is kept while its last job is recent')
    t.mock.timers.tick(400)
    assert.equal(threads.threads, 0, 'and ends a full idle time after it')
  })
})
