import type { Access } from '../../../common/api/roles'
import { reaches } from '../../roles/team-scope'
import { refuseOwnAccount } from '../../accounts/account-administration'
import { findAccountById } from '../../accounts/accounts'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import type { Account } from '../../db/schema'
import { apiError } from '../../http/errors'
import type { RequestOrigin } from '../../http/request-origin'
import { deletionRefusedMail } from './deletion-refused-mail'

const noOpenRequest = () => apiError(404, 'deletion_request_not_found', 'not_found')

/**
 * POST /staff/:id/deletion-request/refuse: an admin refuses a person's open request for deletion
 * with a reason. In one transaction the request is closed (a conditional update, so an admin
 * refusing while another anonymises or refuses finds it decided: 404), the log records the
 * reason, and the person's mail, quoting it, is queued. Not one's own request (another admin
 * decides it), as anonymise-account.ts refuses one's own account.
 */
export async function refuseDeletionRequest(
  context: Pick<ApiContext, 'db' | 'now' | 'outbox'>,
  admin: Account,
  rawId: string,
  rawReason: string,
  origin: RequestOrigin,
  /** The caller's reach (roles/): a request of someone out of it is not found. */
  access?: Access,
): Promise<void> {
  const id = refuseOwnAccount(admin, rawId)
  const reason = rawReason.trim()
  if (!reason) throw apiError(400, 'missing_reason', 'invalid_input')
  const at = context.now()
  await context.db.transaction().execute(async (trx) => {
    const account = await findAccountById(trx, id)
    if (!account || (access && !reaches(access, account.team_id))) throw noOpenRequest()
    const closed = await trx
      .updateTable('deletion_requests')
      .set({ decided_at: at, decided_by: admin.id, outcome: 'refused', reason })
      .where('account_id', '=', account.id)
      .where('decided_at', 'is', null)
      .executeTakeFirst()
    if (Number(closed.numUpdatedRows) === 0) throw noOpenRequest()
    await recordAudit(trx, {
      type: 'deletion_refused',
      actor: party(admin),
      account: party(account),
      origin,
      details: { reason },
      at,
    })
    await context.outbox.queue(
      trx,
      'deletion_refused',
      deletionRefusedMail(account.email, account.name, admin.name, reason),
    )
  })
  context.outbox.wake()
}
