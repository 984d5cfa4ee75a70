import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { normalizeEmail } from '../../common/account-rules'
import type { Db } from '../db/database'
import { adminExists, createAccount } from './accounts'
import { hashPassword } from './passwords'

export const DEFAULT_ADMIN_EMAIL = 'admin@localhost'

/**
 * A fresh install needs someone who can sign in and approve the others. When no admin exists,
 * one is created from ADMIN_EMAIL / ADMIN_PASSWORD; without a password, a random one is written
 * to the log, once. Safe when several replicas start together: the e-mail is unique, and only
 * the replica whose insert won writes the password.
 */
export async function ensureFirstAdmin(
  db: Db,
  settings: { adminEmail: string | null; adminPassword: string | null },
  log: FastifyBaseLogger,
): Promise<void> {
  if (await adminExists(db)) return
  const email = normalizeEmail(settings.adminEmail ?? DEFAULT_ADMIN_EMAIL)
  const password = settings.adminPassword ?? randomBytes(12).toString('base64url')
  const created = await createAccount(db, {
    name: 'Administrador',
    email,
    passwordHash: await hashPassword(password),
    role: 'admin',
    status: 'active',
  })
  if (!created) {
    if (await adminExists(db)) return // another replica was first
    log.error(
      `no admin exists and ${email} already belongs to a staff account: set ADMIN_EMAIL to another address`,
    )
    return
  }
  if (settings.adminPassword === null) {
    log.warn(
      { email },
      `FIRST ADMIN CREATED. Sign in as ${email} with the password ${password} (shown only this once; change it in "Minha conta").`,
    )
  } else {
    log.info(
      { email },
      `first admin created: sign in as ${email} with the password from ADMIN_PASSWORD`,
    )
  }
}
