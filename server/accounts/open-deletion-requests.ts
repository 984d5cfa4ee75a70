import type { Access } from '../../common/api/roles'
import type { Db } from '../db/database'
import { reachableSql } from '../roles/team-scope'

/**
 * How many requests for deletion wait for a decision among the people the caller reaches: the
 * sidebar's badge beside Equipe (it reads it from the staff list it already asks for the waiting
 * registrations) and Equipe's "Pedidos de exclusão (N)", counted as GET
 * /api/staff/deletion-requests lists them.
 */
export async function countOpenDeletionRequests(db: Db, access: Access): Promise<number> {
  const row = await db
    .selectFrom('deletion_requests')
    .innerJoin('accounts', 'accounts.id', 'deletion_requests.account_id')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('deletion_requests.decided_at', 'is', null)
    .where(reachableSql(access))
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}
