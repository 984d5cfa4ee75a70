import type { MyActivity, MySignIn } from '../../common/api/dashboard'
import { browserName } from '../../common/browser-name'
import { PENDING_LINK_TTL_SECONDS } from '../accounts/pending-link-lifetime'
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
  const ownLinkSteps = await linkStepsTakenByOwner(db, accountId, previous?.at)
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
    failedSince: Number(count) - ownLinkSteps,
    mfa: (await mfaMethods(db, accountId)).length > 0,
    signIns: signIns.map(mySignIn),
  }
}

/**
 * The `link_required` refusals (the provider claimed this account's e-mail without vouching for
 * it) that the person then finished by linking with the account's password
 * (features/sign-in-with-provider/link-by-password.ts): the same provider linked `by: password`
 * within the pending link's life. Those were the person's own first step, not an attempt on
 * their account, and Início does not count them as failures. One that nobody finished stays a
 * failure: someone at that provider claimed the person's e-mail.
 */
async function linkStepsTakenByOwner(
  db: Db,
  accountId: string,
  since: Date | undefined,
): Promise<number> {
  let query = db
    .selectFrom('audit_events')
    .select(['type', 'at', 'details'])
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('type', '=', 'sign_in_failed'),
          eb('details', 'like', '%"reason":"link_required"%'),
        ]),
        eb.and([eb('type', '=', 'provider_linked'), eb('details', 'like', '%"by":"password"%')]),
      ]),
    )
  if (since) query = query.where('at', '>', since)
  const rows = (await query.execute()).map((row) => ({
    type: row.type,
    at: row.at.getTime(),
    provider: providerOf(row.details),
  }))
  const links = rows.filter((row) => row.type === 'provider_linked')
  return rows.filter(
    (refusal) =>
      refusal.type === 'sign_in_failed' &&
      links.some(
        (link) =>
          link.provider === refusal.provider &&
          link.at >= refusal.at &&
          link.at - refusal.at <= PENDING_LINK_TTL_SECONDS * 1000,
      ),
  ).length
}

function providerOf(details: string): unknown {
  try {
    return (JSON.parse(details) as { provider?: unknown }).provider
  } catch {
    return undefined
  }
}
