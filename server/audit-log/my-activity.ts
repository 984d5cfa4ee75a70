import type { MyActivity, MySignIn } from '../../common/api/dashboard'
import { browserName } from '../http/browser-name'
import { mfaMethods } from '../accounts/second-factors'
import { tokenHash } from '../accounts/tokens'
import type { Db } from '../db/database'

/** How many of one's own sign-ins Início lists. */
export const MY_SIGN_INS_SHOWN = 5

const mySignIn = (row: { at: Date; ip: string | null; user_agent: string | null }): MySignIn => ({
  at: row.at.toISOString(),
  ip: row.ip,
  userAgent: browserName(row.user_agent),
})

/**
 * The sign-in before the current session (what "your last access" means to a person: the one
 * they are in now is no news), how many failed attempts on their account came after it, and
 * their last sign-ins (this one included), from the audit log.
 */
export async function myActivity(
  db: Db,
  accountId: string,
  token: string,
): Promise<Pick<MyActivity, 'lastSignIn' | 'failedSince' | 'mfa' | 'signIns'>> {
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
  const signIns = await db
    .selectFrom('audit_events')
    .select(['at', 'ip', 'user_agent'])
    .where('account_id', '=', accountId)
    .where('type', '=', 'sign_in')
    // By time alone, as the (account_id, type, at) index holds them: SQLite, asked to order by the
    // id too, walked the whole log's (at, id) index instead, filtering (1.4 s at a million).
    // One person's two sign-ins in the same millisecond do not happen.
    .orderBy('at', 'desc')
    .limit(MY_SIGN_INS_SHOWN)
    .execute()
  return {
    lastSignIn: previous ? mySignIn(previous) : null,
    failedSince: Number(count),
    mfa: (await mfaMethods(db, accountId)).length > 0,
    signIns: signIns.map(mySignIn),
  }
}
