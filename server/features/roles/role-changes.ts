import type { RoleBody, RoleChangeBody, RoleItem } from '../../../common/api/roles'
import type { Permission } from '../../../common/permissions'
import { accountIdFrom } from '../../accounts/account-administration'
import type { Acting } from '../../access/acting'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import type { Db } from '../../db/database'
import { apiError } from '../../http/errors'
import { mayGrant } from '../../roles/grant-rules'
import { nameKey, unlessNameTaken } from '../../db/name-key'
import {
  findRole,
  findRoleItem,
  inCatalogueOrder,
  permissionsOfRoles,
} from '../../roles/role-store'

const notFound = () => apiError(404, 'role_not_found', 'not_found')
const nameTaken = () => apiError(409, 'role_name_taken')
const builtIn = () => apiError(409, 'built_in_role')
const notGrantable = () => apiError(403, 'role_not_grantable', 'forbidden')

const list = (permissions: readonly Permission[]) => permissions.join(',')

/** POST /api/roles. */
export async function createRole(
  deps: Pick<ApiContext, 'db'>,
  { actor, access, origin }: Acting,
  body: RoleBody,
): Promise<RoleItem> {
  const name = body.name.trim()
  if (!name) throw apiError(400, 'invalid_input')
  const permissions = inCatalogueOrder(body.permissions)
  if (!mayGrant(access, { permissions, scope: body.scope })) throw notGrantable()
  const id = crypto.randomUUID()
  await unlessNameTaken(nameTaken, () =>
    deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('roles')
        .values({
          id,
          name,
          name_key: nameKey(name),
          description: body.description.trim(),
          scope: body.scope,
        })
        .execute()
      await writePermissions(trx, id, permissions)
      await recordAudit(trx, {
        type: 'role_created',
        actor: party(actor),
        origin,
        details: { name, permissions: list(permissions), scope: body.scope },
      })
    }),
  )
  return (await findRoleItem(deps.db, id))!
}

async function writePermissions(trx: Db, roleId: string, permissions: readonly Permission[]) {
  await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute()
  if (permissions.length > 0) {
    await trx
      .insertInto('role_permissions')
      .values(permissions.map((permission) => ({ role_id: roleId, permission })))
      .execute()
  }
}

/**
 * The role, its row locked to the end of the transaction (as account-administration.ts locks
 * an account): two changes of one role, or a change and a deletion, are serialised.
 */
async function lockRole(trx: Db, id: string) {
  await trx
    .updateTable('roles')
    .set((set) => ({ name: set.ref('name') }))
    .where('id', '=', id)
    .execute()
  return findRole(trx, id)
}

/** PATCH /api/roles/:id. */
export async function changeRole(
  deps: Pick<ApiContext, 'db'>,
  { actor, access, origin }: Acting,
  rawId: string,
  change: RoleChangeBody,
): Promise<RoleItem> {
  const id = accountIdFrom(rawId)
  await unlessNameTaken(nameTaken, () =>
    deps.db.transaction().execute(async (trx) => {
      const before = await lockRole(trx, id)
      if (!before) throw notFound()
      if (before.built_in) throw builtIn()
      const held = (await permissionsOfRoles(trx, [id])).get(id)!
      // Nobody reshapes a role beyond their own, before or after the change.
      if (!mayGrant(access, { permissions: held, scope: before.scope })) throw notGrantable()
      const permissions =
        change.permissions === undefined ? held : inCatalogueOrder(change.permissions)
      const scope = change.scope ?? before.scope
      if (!mayGrant(access, { permissions, scope })) throw notGrantable()
      const name = change.name === undefined ? before.name : change.name.trim()
      if (!name) throw apiError(400, 'invalid_input')
      const description = change.description?.trim() ?? before.description
      const added = permissions.filter((p) => !held.includes(p))
      const removed = held.filter((p) => !permissions.includes(p))
      // The same values again change nothing, and the log records changes only.
      const same =
        name === before.name &&
        description === before.description &&
        scope === before.scope &&
        added.length === 0 &&
        removed.length === 0
      if (same) return
      await trx
        .updateTable('roles')
        .set({ name, name_key: nameKey(name), description, scope })
        .where('id', '=', id)
        .execute()
      await writePermissions(trx, id, permissions)
      await recordAudit(trx, {
        type: 'role_updated',
        actor: party(actor),
        origin,
        details: {
          from_name: before.name,
          name,
          added: list(added),
          removed: list(removed),
          from_scope: before.scope,
          scope,
        },
      })
    }),
  )
  return (await findRoleItem(deps.db, id))!
}

/** DELETE /api/roles/:id: only a role nobody holds (409 role_in_use). */
export async function deleteRole(
  deps: Pick<ApiContext, 'db'>,
  { actor, access, origin }: Acting,
  rawId: string,
): Promise<void> {
  const id = accountIdFrom(rawId)
  await deps.db.transaction().execute(async (trx) => {
    const role = await lockRole(trx, id)
    if (!role) throw notFound()
    if (role.built_in) throw builtIn()
    const held = (await permissionsOfRoles(trx, [id])).get(id)!
    if (!mayGrant(access, { permissions: held, scope: role.scope })) throw notGrantable()
    const holder = await trx
      .selectFrom('accounts')
      .select('id')
      .where('role_id', '=', id)
      .executeTakeFirst()
    if (holder) throw apiError(409, 'role_in_use')
    await trx.deleteFrom('roles').where('id', '=', id).execute()
    await recordAudit(trx, {
      type: 'role_deleted',
      actor: party(actor),
      origin,
      details: { name: role.name, permissions: list(held), scope: role.scope },
    })
  })
}
