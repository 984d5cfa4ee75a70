import { isOpenInvitation } from '../../accounts/accounts'
import type { Db } from '../../db/database'

/**
 * Whether an account has a way in besides its provider links: a password of its own (an account
 * a provider made has an empty hash; an open invitation's is nobody's yet) or a passkey.
 */
export async function hasOtherWayIn(db: Db, accountId: string): Promise<boolean> {
  const account = await db
    .selectFrom('accounts')
    .select(['password_hash', 'status', 'invitation_expires_at'])
    .where('id', '=', accountId)
    .executeTakeFirst()
  if (!account) return false
  if (account.password_hash !== '' && !isOpenInvitation(account)) return true
  const passkey = await db
    .selectFrom('passkeys')
    .select('id')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return passkey !== undefined
}
