import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dropScratch } from './test-database'

/** A `run` that fails with these PostgreSQL error codes first, then succeeds. */
function failingFirst(codes: string[]) {
  const statements: string[] = []
  const run = async (statement: string) => {
    statements.push(statement)
    const code = codes.shift()
    if (code !== undefined) throw Object.assign(new Error(`failed with ${code}`), { code })
  }
  return { run, statements }
}

describe("a scratch database's drop", () => {
  it("tries again while another role's process (an autovacuum worker) is on it", async () => {
    const { run, statements } = failingFirst(['42501', '55006', '42501'])
    await dropScratch(run, 'painel_test_x')
    assert.equal(statements.length, 4)
    assert.ok(statements.every((statement) => statement.includes('with (force)')))
  })

  it('gives up at once on any other error', async () => {
    const { run, statements } = failingFirst(['3D000'])
    await assert.rejects(dropScratch(run, 'painel_test_y'), /3D000/)
    assert.equal(statements.length, 1)
  })
})
