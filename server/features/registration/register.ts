import { apiError } from '../../http/errors'
import { canonicalEmail, INVALID_EMAIL_MESSAGE } from '../../../common/account-rules'
import { registerAccount } from '../../accounts/accounts'
import { acceptedName, checkNewPassword, invalidInput } from '../../accounts/account-input'
import { hashPassword } from '../../accounts/passwords'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../http/request-origin'

/**
 * A new staff account, pending an admin's approval. When the e-mail is taken nothing changes,
 * and the caller cannot tell: the rules and the hash run before the answer either way, and
 * the write, whose time depends on the e-mail, after it. `onRegistered` tells the admins.
 */
export async function register(
  { db, log, background }: ApiContext,
  fields: { name: string; email: string; password: string; teamId?: string },
  origin: RequestOrigin | undefined,
  onRegistered: () => void,
): Promise<void> {
  const name = acceptedName(fields.name)
  const email = canonicalEmail(fields.email)
  if (email === null) throw invalidInput(INVALID_EMAIL_MESSAGE)
  checkNewPassword(fields.password, { email, name })
  // Only a team the admins opened to registration (the same 400 for any other id).
  const teamId = fields.teamId === undefined ? null : fields.teamId.toLowerCase()
  if (teamId !== null) {
    const open = await db
      .selectFrom('teams')
      .select('id')
      .where('id', '=', teamId)
      .where('open', '=', true)
      .executeTakeFirst()
    if (!open) throw apiError(400, 'unknown_team', 'invalid_input')
  }
  const passwordHash = await hashPassword(fields.password)
  // Written before the answer, so an acknowledged registration survives a crash; the same
  // write whether or not the e-mail is taken (registerAccount), so the answer's time says
  // nothing about it. What only concerns a new account (its audit event, the admins' mail,
  // the log line) comes after.
  const created = await registerAccount(db, { name, email, passwordHash, teamId })
  if (created) {
    background.afterAnswer('registration follow-up failed', async () => {
      await recordAccountEvent(db, 'registered', created.id, origin)
      onRegistered()
      log.info({ accountId: created.id }, 'registration received, pending approval')
    })
  }
}
