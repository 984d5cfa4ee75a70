import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import type { AuthProvider } from '../config/auth-providers'
import type { Db } from '../db/database'
import { nameKey } from '../db/name-key'

/**
 * The role a directory's group gives, by the single sign-on mapping (docs/single-sign-on.md): a
 * group is one value of the claim that provider's ADMIN_CLAIM and ROLE_CLAIM read, either its
 * name (Okta's `groups` claim) or its directory id (Entra ID's, which carries object ids). So
 * the group is looked up in each provider's ADMIN_VALUES (Administrador) and then in its ROLE_MAP
 * (the first pair whose value it is), providers in AUTH_PROVIDERS order; the first that names it
 * decides. A ROLE_MAP name that is no role gives nothing, as at a sign-in
 * (features/sign-in-with-provider/account-for-identity.ts). Undefined: the mapping says nothing.
 */
export async function roleIdForGroup(
  db: Db,
  providers: readonly AuthProvider[],
  group: { name: string; externalId: string | null },
): Promise<string | undefined> {
  const values = [group.name, ...(group.externalId ? [group.externalId] : [])]
  for (const provider of providers) {
    if (provider.adminClaim !== null && provider.adminValues.some((v) => values.includes(v)))
      return BUILT_IN_ROLE_IDS.admin
    if (provider.roleClaim === null) continue
    const pair = provider.roleMap.find((mapping) => values.includes(mapping.value))
    if (!pair) continue
    const role = await db
      .selectFrom('roles')
      .select('id')
      .where('name_key', '=', nameKey(pair.name))
      .executeTakeFirst()
    return role?.id.toLowerCase()
  }
  return undefined
}
