import { canonicalEmail, INVALID_EMAIL_MESSAGE } from '../../../common/account-rules'
import { findAccountByEmail } from '../../accounts/accounts'
import { invalidInput } from '../../accounts/account-input'
import { signsInWithPassword } from '../../accounts/password-sign-in-policy'
import { newToken, tokenHash } from '../../accounts/tokens'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import type { Account } from '../../db/schema'
import { apiError } from '../../http/errors'
import type { RequestOrigin } from '../../http/request-origin'
import { LINK_TOKEN_MARK } from '../../mail/outbox'
import {
  confirmNewEmailMail,
  EMAIL_CHANGE_HOURS,
  emailChangeAskedMail,
  emailTakenMail,
} from './email-change-mails'

/**
 * Asks for a change of the account's e-mail, by its owner (after their password) or by an
 * admin: one transaction ends the account's earlier pending change, keeps the new one, mails
 * the new address its confirmation link (or, when that address has an account, word that
 * nothing changed) and the old address word of it with a cancel link, and audits it. The
 * caller's answer is the same either way: it never says whether the new address has an account.
 */
export async function requestEmailChange(
  context: Pick<ApiContext, 'db' | 'now' | 'outbox' | 'config'>,
  account: Account,
  rawEmail: string,
  by: { admin: Account | null; origin: RequestOrigin },
): Promise<void> {
  const newEmail = canonicalEmail(rawEmail)
  if (newEmail === null) throw invalidInput(INVALID_EMAIL_MESSAGE)
  if (newEmail === account.email) throw apiError(400, 'same_email')
  const { db, outbox, config } = context
  const now = context.now()
  const confirmToken = newToken()
  const cancelToken = newToken()
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('email_changes')
      .set({ ended_at: now, outcome: 'replaced' })
      .where('account_id', '=', account.id)
      .where('ended_at', 'is', null)
      .execute()
    await trx
      .insertInto('email_changes')
      .values({
        id: crypto.randomUUID(),
        account_id: account.id,
        new_email: newEmail,
        confirm_token_hash: tokenHash(confirmToken),
        cancel_token_hash: tokenHash(cancelToken),
        created_at: now,
        expires_at: new Date(now.getTime() + EMAIL_CHANGE_HOURS * 3_600_000),
        ended_at: null,
        outcome: null,
      })
      .execute()
    const taken = await findAccountByEmail(trx, newEmail)
    if (taken) {
      await outbox.queue(trx, 'email_change_taken', emailTakenMail(newEmail))
    } else {
      const link = `${config.publicUrl}/#/confirmar-email?token=${LINK_TOKEN_MARK}`
      await outbox.queue(
        trx,
        'email_change_confirm',
        confirmNewEmailMail(newEmail, account.name, link),
        {
          tokenHash: tokenHash(confirmToken),
        },
      )
    }
    const cancelLink = `${config.publicUrl}/#/confirmar-email?cancelar=${LINK_TOKEN_MARK}`
    const admin = by.admin ? `${by.admin.name} (${by.admin.email})` : null
    await outbox.queue(
      trx,
      'email_change_asked',
      emailChangeAskedMail(account.email, account.name, {
        newEmail,
        byAdmin: admin,
        cancelLink,
        password: signsInWithPassword(config, account),
      }),
      { tokenHash: tokenHash(cancelToken) },
    )
    await recordAudit(trx, {
      type: 'email_change_requested',
      actor: party(by.admin ?? account),
      account: party(account),
      origin: by.origin,
      // The old address's mail is a security notice: the event says it was sent.
      details: { by: by.admin ? 'admin' : 'owner', notice: true },
      at: now,
    })
  })
  outbox.wake()
}

/**
 * A new token for a waiting change's link (the outbox's LinkMinter: a stored mail never holds a
 * working link), confirm or cancel, in place of the one whose hash the mail keeps.
 */
export async function remintEmailChangeLink(
  trx: Pick<ApiContext, 'db'>['db'],
  currentHash: string,
  now: Date,
): Promise<{ token: string; tokenHash: string } | undefined> {
  for (const column of ['confirm_token_hash', 'cancel_token_hash'] as const) {
    const token = newToken()
    const result = await trx
      .updateTable('email_changes')
      .set({ [column]: tokenHash(token) })
      .where(column, '=', currentHash)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    if (result.numUpdatedRows > 0n) return { token, tokenHash: tokenHash(token) }
  }
  return undefined
}

/** Changes that ended or expired are kept 30 days (what happened to a link), then go. */
export async function pruneEmailChanges(db: Pick<ApiContext, 'db'>['db'], now = new Date()) {
  await db
    .deleteFrom('email_changes')
    .where('expires_at', '<', new Date(now.getTime() - 30 * 86_400_000))
    .execute()
}
