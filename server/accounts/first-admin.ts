import { canonicalEmail } from '../../common/account-rules'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { roleColumns } from '../db/role-columns'
import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/database'
import { createAccount, findAccountByEmail } from './accounts'
import { hashPasswordAtStart } from './passwords'

export const DEFAULT_ADMIN_EMAIL = 'admin@localhost'

/** A password's hash begun before it was needed, with the password it is of. */
export interface BegunHash {
  password: string
  hash: Promise<string>
}

export interface FirstAdminSettings {
  adminEmail: string | null
  adminPassword: string | null
  /**
   * ADMIN_PASSWORD's hash, when main.ts began it before the server loaded (a DATA_DIR with no
   * database: see there); otherwise it is made when needed.
   */
  adminPasswordHash?: BegunHash | undefined
}

async function activeAdminExists(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Someone must always be able to sign in and approve the others. At start, when no account is
 * an active admin (a fresh install, or every admin disabled by hand in the database), ADMIN_EMAIL
 * becomes one: created when it has no account, else made an active admin again (with
 * ADMIN_PASSWORD when it is set; without it the account keeps its password, and the recovery
 * link works for it again). A created account without ADMIN_PASSWORD gets a random password,
 * written to the log once. Safe when several replicas start together: the e-mail is unique.
 */
export async function ensureFirstAdmin(
  db: Db,
  settings: FirstAdminSettings,
  log: FastifyBaseLogger,
): Promise<void> {
  if (await activeAdminExists(db)) return
  // The hash main.ts began, when it is of this password; any other made now.
  const begun = settings.adminPasswordHash
  const hashOf = (password: string) =>
    begun?.password === password ? begun.hash : hashPasswordAtStart(password)
  // Config keeps ADMIN_EMAIL canonical (config/config.ts); made so here too, for any other caller,
  // since a stored address that is not canonical is one nobody could sign in with.
  const email =
    (settings.adminEmail === null ? null : canonicalEmail(settings.adminEmail)) ??
    DEFAULT_ADMIN_EMAIL
  const existing = await findAccountByEmail(db, email)
  if (existing) {
    await db
      .updateTable('accounts')
      .set({
        ...roleColumns(BUILT_IN_ROLE_IDS.admin),
        status: 'active',
        updated_at: new Date(),
        ...(settings.adminPassword === null
          ? {}
          : { password_hash: await hashOf(settings.adminPassword) }),
      })
      .where('id', '=', existing.id)
      .execute()
    log.warn(
      { email, accountId: existing.id },
      `NO ACTIVE ADMIN: ${email} (ADMIN_EMAIL) was made an active admin again` +
        (settings.adminPassword === null
          ? ' with its own password (recovery works for it)'
          : ', with the password from ADMIN_PASSWORD'),
    )
    return
  }

  const password = settings.adminPassword ?? randomBytes(12).toString('base64url')
  const created = await createAccount(db, {
    name: 'Administrador',
    email,
    passwordHash: await hashOf(password),
    role: 'admin',
    status: 'active',
  })
  if (!created) {
    if (await activeAdminExists(db)) return // another replica was first
    log.error(`no active admin exists and ${email} could not be created: restart to try again`)
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
