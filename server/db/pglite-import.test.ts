import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, it } from 'node:test'
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import { createPasswordReset } from '../accounts/password-resets'
import { hashPassword } from '../accounts/passwords'
import { newToken, tokenHash } from '../accounts/tokens'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'
import { PGliteDialect } from '../test/pglite-dialect'
import { migrator } from './migrations'
import type { Role, Schema } from './schema'

/**
 * A DATA_DIR made by the versions that kept their database in PGlite (DATA_DIR/pglite, the
 * schema of the first migration on PostgreSQL, written by the same account, session, reset and
 * throttle code) is copied into the SQLite file at the first start of this version, once.
 */

let dist: FixtureDist
let dataDir: string
const old = { sessionToken: '', resetToken: '' }

before(async () => {
  dist = await createFixtureDist()
  dataDir = await mkdtemp(join(tmpdir(), 'painel-pglite-import-'))
  const pglite = new PGlite(join(dataDir, 'pglite'))
  const db = new Kysely<Schema>({ dialect: new PGliteDialect(pglite) })
  const { error } = await migrator(db, 'postgres').migrateTo(
    '2026-11-21-0001-accounts-and-sessions',
  )
  assert.equal(error, undefined)
  // Accounts as that version wrote them (its columns only: no name sort key yet).
  const oldAccount = async (name: string, email: string, password: string, role: Role) =>
    db
      .insertInto('accounts')
      .values({
        id: crypto.randomUUID(),
        name,
        email,
        password_hash: await hashPassword(password),
        role,
        status: 'active',
      } as never)
      .returning('id')
      .executeTakeFirst()
  const admin = await oldAccount('Bruno Chefe', 'chefe@example.com', 'senha-do-chefe-1', 'admin')
  const ana = await oldAccount('Álvaro Ana', 'ana@example.com', 'senha-da-ana-1', 'staff')
  assert.ok(admin && ana)
  // A session as that version wrote it (its columns only).
  old.sessionToken = newToken()
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash(old.sessionToken),
      account_id: admin.id,
      expires_at: new Date(Date.now() + 3600_000),
    } as never)
    .execute()
  old.resetToken = await createPasswordReset(db, ana.id)
  // The failure count the earlier versions kept (their Throttle class wrote rows like this one).
  await db
    .insertInto('auth_throttle')
    .values({ key: 'login:email:chefe@example.com', count: 3, window_started_at: new Date() })
    .execute()
  await db.destroy()
})
after(async () => {
  await rm(dataDir, { recursive: true, force: true })
  await dist.cleanup()
})

it('copies accounts, sessions and reset links from an earlier PGlite DATA_DIR, once, and keeps the old folder', async () => {
  const settings = {
    dataDir,
    databaseUrl: null,
    logLevel: 'info' as const,
    adminPassword: 'outra-senha-1',
  }
  const { app, logLines } = await testApp(dist.distDir, settings)
  try {
    const messages = logLines().map((line) => String(line.msg))
    assert.ok(
      messages.some((message) =>
        /^copied from .*pglite: 2 accounts, 1 sessions, 1 password_resets, 1 auth_throttle$/.test(
          message,
        ),
      ),
      messages.join('\n'),
    )
    assert.ok(!messages.some((message) => message.includes('FIRST ADMIN')), 'the admin came across')
    assert.ok(existsSync(join(dataDir, 'pglite.imported')) && !existsSync(join(dataDir, 'pglite')))

    const me = await app.inject({
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${old.sessionToken}` },
    })
    assert.equal(me.statusCode, 200, 'a session of the old version still works')
    assert.equal(me.json<{ user: { email: string } }>().user.email, 'chefe@example.com')

    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { token: old.resetToken, password: 'senha-nova-da-ana-1' },
    })
    assert.equal(reset.statusCode, 204, 'a mailed reset link of the old version still works')
    const ana = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ana@example.com', password: 'senha-nova-da-ana-1' },
    })
    assert.equal(ana.statusCode, 200)

    // "Nome (A–Z)" orders the copied accounts by their names' sort keys (the 0500 migration's):
    // by the names' bytes Bruno would come before Álvaro.
    const admin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'chefe@example.com', password: 'senha-do-chefe-1' },
    })
    const list = await app.inject({
      url: '/api/staff?sort=name',
      headers: { authorization: `Bearer ${admin.json<{ token: string }>().token}` },
    })
    assert.equal(list.statusCode, 200, list.body)
    assert.deepEqual(
      list.json<{ items: { name: string }[] }>().items.map((item) => item.name),
      ['Álvaro Ana', 'Bruno Chefe'],
    )

    // The earlier versions' failure counts are copied but no longer read: the sign-in limits of
    // this version (accounts/sign-in-limits.ts) count in sign_in_limits and start afresh.
  } finally {
    await app.close()
  }

  // A restart does not import again.
  const again = await testApp(dist.distDir, settings)
  try {
    assert.ok(!again.logLines().some((line) => String(line.msg).startsWith('copied from')))
  } finally {
    await again.app.close()
  }
})
