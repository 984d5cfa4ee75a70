import { canonicalEmail, INVALID_EMAIL_MESSAGE } from '../../../common/account-rules'
import { findAccountByEmail } from '../../accounts/accounts'
import { invalidInput } from '../../accounts/account-input'
import { issuePasswordReset, RESET_TTL_SECONDS } from '../../accounts/password-resets'
import { passwordAllowedFor } from '../../accounts/password-sign-in-policy'
import { limitKeys, RULES } from '../../accounts/sign-in-limits'
import { tokenHash } from '../../accounts/tokens'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../http/request-origin'
import type { MailMessage } from '../../mail/mailer'
import { passwordResetMail } from '../../mail/messages'
import { composeQueued, LINK_TOKEN_MARK, type OutboxRow } from '../../mail/outbox'

/** Recovery mails per account and hour (sign-in-limits.ts counts them). */
export const RECOVERY_LIMIT = {
  mailsPerAccount: RULES.recoveryMail.perWindow,
  windowSeconds: RULES.recoveryMail.windowSeconds,
} as const

/** The outbox's kind for a recovery request, composed by the sender. */
const RECOVERY_MAIL = 'password_recovery'

/**
 * Mails a single-use reset link when the e-mail belongs to an account that is not disabled.
 * The request only queues the e-mail (one insert, the same whether or not it has an account),
 * so neither the answer nor the work around it depends on the account; the outbox's sender
 * decides, a random moment later, whether there is a mail to compose (composeRecoveryMail).
 * Written before the answer: an acknowledged request survives a crash.
 */
export async function requestPasswordRecovery(
  { db, outbox }: ApiContext,
  rawEmail: string,
  origin: RequestOrigin | undefined,
): Promise<void> {
  const email = canonicalEmail(rawEmail)
  if (email === null) throw invalidInput(INVALID_EMAIL_MESSAGE)
  const request: RequestOrigin = origin ?? { ip: null, userAgent: null }
  await outbox.queueRequest(db, RECOVERY_MAIL, email, request)
  outbox.wake()
}

/** Gives the outbox's sender the composer of recovery requests. */
export function composeRecoveryMails(context: ApiContext): void {
  context.outbox.prepare(RECOVERY_MAIL, (row) => composeRecoveryMail(context, row))
}

/**
 * The outbox's composer of a recovery request: a reset link for an account that is not
 * disabled, issued, audited and written into the row in one transaction; none (null) else.
 */
async function composeRecoveryMail(
  { db, limits, log, config }: ApiContext,
  row: OutboxRow,
): Promise<MailMessage | null> {
  const account = await findAccountByEmail(db, row.recipient)
  if (!account || account.status === 'disabled') return null
  // PASSWORD_SIGN_IN=off (docs/single-sign-on.md): only the first admin keeps a password; anyone
  // else signs in at a provider, and a link to set a password would set one nobody may use.
  if (!passwordAllowedFor(config, account.email)) {
    log.info({ accountId: account.id }, 'recovery mail not sent: PASSWORD_SIGN_IN=off')
    return null
  }
  // Counted and checked in one atomic write: concurrent requests cannot all slip under it.
  if (!(await limits.gate([limitKeys.recoveryMail(account.email)])).allowed) {
    log.warn({ accountId: account.id }, 'recovery mail not sent: too many asked for this account')
    return null
  }
  const origin = JSON.parse(row.request ?? 'null') as RequestOrigin | null
  const mail = await db.transaction().execute(async (trx) => {
    // The account's row locked (a write that changes nothing, as account-administration.ts
    // locks it) and read again. An anonymisation that committed since the read above is seen
    // here (no mail); one under way waits for this transaction, so its scrub of the log sees
    // this mail's event. Without it, the event could be written after the scrub, with the
    // name and e-mail just erased (seen on PostgreSQL: anonymise-api.test.ts).
    const current = await trx
      .updateTable('accounts')
      .set((set) => ({ updated_at: set.ref('updated_at') }))
      .where('id', '=', account.id)
      .where('email', '=', row.recipient)
      .where('status', '!=', 'disabled')
      .returningAll()
      .executeTakeFirst()
    if (!current) return null
    const token = await issuePasswordReset(trx, current.id)
    await recordAccountEvent(trx, 'reset_requested', current.id, origin ?? undefined)
    const link = `${config.publicUrl}/#/recuperar-senha?token=${LINK_TOKEN_MARK}`
    const mail = passwordResetMail(current.email, current.name, link, RESET_TTL_SECONDS / 60)
    await composeQueued(trx, row.id, mail, { tokenHash: tokenHash(token) })
    return mail
  })
  // An anonymisation that committed between the first read and the gate scrubbed this address's
  // limits before the gate wrote its count (anonymise-account.ts), so the count would keep the
  // e-mail of a person who is gone until its window ends. Once no account has the address, it
  // goes too (recovery-anonymise-race.test.ts).
  if (!mail && !(await findAccountByEmail(db, account.email))) await limits.unlock(account.email)
  return mail
}
