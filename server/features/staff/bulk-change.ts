import { normalizeAccountId } from '../../../common/account-id'
import type { StaffBulkAnswer, StaffBulkBody, StaffBulkResult } from '../../../common/api/staff'
import { invalidAccountId } from '../../accounts/account-administration'
import type { ApiContext } from '../../api/api-context'
import { apiError, HttpError } from '../../http/errors'
import { applyStaffChange } from './change-staff-account'
import { refuseRegistration } from './refuse-registration'
import type { Acting } from '../../access/acting'

type Outcome = StaffBulkResult['outcome']

/**
 * POST /staff/bulk: one action for several people, each through the single-person use case
 * (change-staff-account.ts, refuse-registration.ts), so the rules hold the same (not oneself,
 * never the last admin, an invitation disabled like any account) and each person's change is
 * its own transaction with its own audit event. One after another, not at once: each change
 * holds the admins' lock (accounts/account-administration.ts) for its few milliseconds anyway.
 *
 * What another admin did meanwhile is not an error: the account is read locked, and a person
 * already approved, disabled or refused is `already_done`, with nothing written.
 */
export async function bulkChange(
  deps: ApiContext,
  acting: Acting,
  { action, ids, reason }: StaffBulkBody,
): Promise<StaffBulkAnswer> {
  if (reason !== undefined && action !== 'refuse') throw apiError(400, 'reason_only_to_refuse')
  const distinct = [
    ...new Set(
      ids.map((raw) => {
        const id = normalizeAccountId(raw)
        if (id === null) throw invalidAccountId()
        return id
      }),
    ),
  ]
  const results: StaffBulkResult[] = []
  for (const id of distinct) {
    try {
      results.push({ id, outcome: await actOn(deps, acting, action, id, reason) })
    } catch (caught) {
      // A refusal of this person (409, 404, 400) is their result. Anything else (the disk is
      // full, the database gone) would fail the next ones too: the request fails as a single
      // call would, with what was done so far kept, each person's change being whole.
      if (!(caught instanceof HttpError) || caught.statusCode >= 500) throw caught
      results.push({
        id,
        outcome: 'failed',
        error: { code: caught.code, message: caught.message },
      })
    }
  }
  return { results }
}

async function actOn(
  deps: ApiContext,
  acting: Acting,
  action: StaffBulkBody['action'],
  id: string,
  reason: string | undefined,
): Promise<Outcome> {
  try {
    if (action === 'refuse') {
      await refuseRegistration(deps, acting, id, reason)
      return 'done'
    }
    const { changed } = await applyStaffChange(deps, acting, id, (before) => {
      if (action === 'disable') return before.status === 'disabled' ? null : { status: 'disabled' }
      if (before.status === 'pending') return { status: 'active' }
      // Active already (approved meanwhile); a disabled account is re-enabled on its own page.
      if (before.status === 'active') return null
      throw apiError(409, 'not_awaiting_approval', 'not_pending')
    })
    return changed ? 'done' : 'already_done'
  } catch (caught) {
    // The account is gone: a registration refused meanwhile (by this action or another admin).
    if (caught instanceof HttpError && caught.statusCode === 404 && (await wasRefused(deps, id))) {
      if (action === 'refuse') return 'already_done'
      throw apiError(409, 'refused_already', 'refused')
    }
    throw caught
  }
}

/** Whether the audit log says this account's registration was refused (and so removed). */
async function wasRefused(deps: ApiContext, id: string): Promise<boolean> {
  const event = await deps.db
    .selectFrom('audit_events')
    .select('id')
    .where('account_id', '=', id)
    .where('type', '=', 'refused')
    .executeTakeFirst()
  return event !== undefined
}
