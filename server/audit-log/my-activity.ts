import type { MyActivity } from '../../common/api/dashboard'
import { browserName } from '../http/browser-name'
import { mfaMethods } from '../accounts/second-factors'
import { tokenHash } from '../accounts/tokens'
import type { Db } from '../db/database'

/**
 * The sign-in before the current session (what "your last access" means to a person: the one
 * they are in now is no news), and how many failed attempts on their account came after it.
 */
export async function myActivity(db: Db, accountId: string, token: string): Promise<MyActivity> {
  const session = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst()
  const sessionStart = session?.created_at ?? new Date()
  const previous = await db
    .selectFrom('audit_events')
    .select(['at', 'ip', 'user_agent'])
    .where('account_id', '=', accountId)
    .where('type', '=', 'sign_in')
    .where('at', '<', sessionStart)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst()
  let failures = db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .where('type', '=', 'sign_in_failed')
  if (previous) failures = failures.where('at', '>', previous.at)
  const { count } = await failures.executeTakeFirstOrThrow()
  return {
    lastSignIn: previous
      ? {
          at: previous.at.toISOString(),
          ip: previous.ip,
          userAgent: browserName(previous.user_agent),
        }
      : null,
    failedSince: Number(count),
    mfa: (await mfaMethods(db, accountId)).length > 0,
  }
}
