import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { roleColumns } from '../../db/role-columns'
import { nameKey } from '../../db/name-key'
import { writeAccountChangeWithin, type AccountChange } from '../../accounts/account-administration'
import { nameProblem, normalizeName } from '../../../common/name-rules'
import type { AuthProvider } from '../../config/auth-providers'
import type { ApiContext } from '../../api/api-context'
import { findAccountByEmail, findAccountById, isOpenInvitation } from '../../accounts/accounts'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import type { RequestOrigin } from '../../http/request-origin'
import { addLink, findLink, touchLink } from './provider-links'
import type { ProviderIdentity } from './provider-identity'
import { nameColumns } from '../../db/name-columns'

/**
 * The Painel account of a person a provider identified (issue 28's linking rules,
 * docs/single-sign-on.md): the account already linked to (issuer, subject); else the account
 * with the e-mail, linked now, only when the provider vouches for the e-mail (an unverified
 * `email` claim is how the nOAuth takeover works); else a new account, pending an admin's
 * approval unless AUTO_APPROVE, with no password of its own, with the role and team the
 * provider's claims map to (ADMIN_CLAIM, ROLE_MAP, TEAM_MAP: see placementOf), Equipe and no team
 * when they map to nothing. An existing person's role and team follow the mapping at each
 * sign-in (placeByClaims).
 */
export type AccountOutcome =
  | { outcome: 'account'; account: Account; created: boolean }
  /** An account has this e-mail, but the provider does not vouch for it. */
  | { outcome: 'link_required'; account: Account }
  | { outcome: 'email_missing' }

/** A new person's name: the token's, else the e-mail's local part, else a word. */
export function nameForNewAccount(identity: Pick<ProviderIdentity, 'name' | 'email'>): string {
  if (identity.name !== null) return identity.name
  const local = normalizeName((identity.email ?? '').split('@')[0] ?? '')
  return local !== '' && nameProblem(local) === null ? local : 'Pessoa sem nome'
}

export async function accountForIdentity(
  { db, now, log, outbox }: Pick<ApiContext, 'db' | 'now' | 'log' | 'outbox'>,
  provider: AuthProvider,
  identity: ProviderIdentity,
  origin: RequestOrigin | undefined,
): Promise<AccountOutcome> {
  const key = { provider: provider.name, issuer: identity.issuer, subject: identity.subject }
  const at = now()
  let placed = false
  const place = async (trx: Db, account: Account, placement: Placement) => {
    const after = await placeByClaims(trx, log, provider, account, placement, origin)
    placed ||= after !== account
    return after
  }
  const outcome = await db.transaction().execute(async (trx): Promise<AccountOutcome> => {
    const linked = await findLink(trx, key)
    const linkedAccount = linked && (await findAccountById(trx, linked.accountId))
    if (linked && linkedAccount) {
      await touchLink(trx, linked.linkId, at)
      const placement = await placementOf(trx, log, provider, identity)
      return {
        outcome: 'account',
        account: await place(trx, linkedAccount, placement),
        created: false,
      }
    }
    if (identity.email === null) return { outcome: 'email_missing' }
    const existing = await findAccountByEmail(trx, identity.email)
    if (existing) {
      if (!identity.emailVerified) return { outcome: 'link_required', account: existing }
      if (!(await addLink(trx, key, existing.id, at))) {
        // This subject is linked to another account, or a concurrent callback linked it first.
        return { outcome: 'link_required', account: existing }
      }
      await recordAccountEvent(trx, 'provider_linked', existing.id, origin, {
        provider: provider.name,
        by: 'verified_email',
      })
      // Placed before the invitation ends: the admins' rows are locked before this one
      // (accounts/account-administration.ts), as every change to a person does.
      const placement = await placementOf(trx, log, provider, identity)
      const placedAccount = await place(trx, existing, placement)
      const joined = isOpenInvitation(placedAccount)
        ? await endInvitation(trx, placedAccount)
        : placedAccount
      return { outcome: 'account', account: joined, created: false }
    }
    if (!identity.emailVerified) {
      // A new account for an e-mail nobody vouches for would squat someone else's address.
      return { outcome: 'email_missing' }
    }
    const placement = await placementOf(trx, log, provider, identity)
    const created = await trx
      .insertInto('accounts')
      .values({
        id: crypto.randomUUID(),
        ...nameColumns(nameForNewAccount(identity)),
        email: identity.email,
        // No password: verifyPassword matches nothing against an empty hash (at a real cost).
        password_hash: '',
        ...roleColumns(placement.roleId ?? BUILT_IN_ROLE_IDS.staff),
        team_id: placement.teamId ?? null,
        status: provider.autoApprove ? 'active' : 'pending',
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!created) {
      // Another callback for this e-mail created its account a moment ago: link to that one.
      const racer = await findAccountByEmail(trx, identity.email)
      if (!racer || !(await addLink(trx, key, racer.id, at))) {
        return racer ? { outcome: 'link_required', account: racer } : { outcome: 'email_missing' }
      }
      return { outcome: 'account', account: racer, created: false }
    }
    await addLink(trx, key, created.id, at)
    await recordAccountEvent(trx, 'registered', created.id, origin, { via: provider.name })
    await recordAccountEvent(trx, 'provider_linked', created.id, origin, {
      provider: provider.name,
      by: 'new_account',
    })
    return { outcome: 'account', account: created, created: true }
  })
  // The role's security notice was queued with the change; send it now rather than at the poll.
  if (placed) outbox.wake()
  return outcome
}

/**
 * An invited person's first sign-in at a provider takes the invitation up (with
 * PASSWORD_SIGN_IN=off it is the only way: features/staff/invite-account.ts mails no password link). The
 * invitation's random password was nobody's: the account is left with none, like one a provider
 * made, so Minha conta does not count it as a way in (sign-in-ways.ts).
 */
export async function endInvitation(db: Db, account: Account): Promise<Account> {
  return db
    .updateTable('accounts')
    .set({ invitation_expires_at: null, password_hash: '', updated_at: new Date() })
    .where('id', '=', account.id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The role and the team the provider's claims give (ids); absent: the claims say nothing of it. */
interface Placement {
  roleId?: string
  teamId?: string
}

/**
 * What the claims map to, looked up now (roles and teams change while the server runs):
 * ADMIN_CLAIM's values give Administrador, before ROLE_MAP is read (the shorthand keeps its
 * meaning beside a map); else ROLE_MAP's first pair the claim holds; TEAM_MAP likewise. A name
 * that is no role or team (renamed, deleted, mistyped) is a warning in the log and gives nothing:
 * the next pair is not tried, so a typo never hands out a role nobody meant.
 */
async function placementOf(
  db: Db,
  log: ApiContext['log'],
  provider: AuthProvider,
  identity: ProviderIdentity,
): Promise<Placement> {
  const placement: Placement = {}
  const setting = (kind: string) => `AUTH_${provider.name.toUpperCase()}_${kind}_MAP`
  if (identity.adminValues.length > 0) {
    placement.roleId = BUILT_IN_ROLE_IDS.admin
  } else if (identity.roleName !== null) {
    const role = await db
      .selectFrom('roles')
      .select('id')
      .where('name_key', '=', nameKey(identity.roleName))
      .executeTakeFirst()
    if (role) placement.roleId = role.id.toLowerCase()
    else
      log.warn(
        { provider: provider.name, role: identity.roleName },
        `${setting('ROLE')} names a role that does not exist: the person's role is left as it is`,
      )
  }
  if (identity.teamName !== null) {
    const team = await db
      .selectFrom('teams')
      .select('id')
      .where('name_key', '=', nameKey(identity.teamName))
      .executeTakeFirst()
    if (team) placement.teamId = team.id.toLowerCase()
    else
      log.warn(
        { provider: provider.name, team: identity.teamName },
        `${setting('TEAM')} names a team that does not exist: the person's team is left as it is`,
      )
  }
  return placement
}

/**
 * The person's role and team made what the claims map to, at each sign-in, through the path of
 * an admin's change (accounts/account-administration.ts: the role's columns, the last-admin
 * rule), audited `role_changed` / `team_changed` with the provider (the role's change mails the
 * person its security notice, security-notices/). Claims that map to nothing leave both as they
 * are: a provider that stops sending a claim (a scope dropped, a token too big for its groups)
 * must not demote anyone. ADMIN_CLAIM alone so never demotes; ROLE_MAP does, to the role it
 * maps to, except the last active Administrador (a warning; Equipe's rule holds for the
 * provider too). A disabled person is refused before the claims change anything.
 */
async function placeByClaims(
  trx: Db,
  log: ApiContext['log'],
  provider: AuthProvider,
  account: Account,
  placement: Placement,
  origin: RequestOrigin | undefined,
): Promise<Account> {
  const wants = (row: Account): AccountChange => ({
    ...(placement.roleId !== undefined &&
      placement.roleId !== row.role_id.toLowerCase() && { roleId: placement.roleId }),
    ...(placement.teamId !== undefined &&
      placement.teamId !== row.team_id?.toLowerCase() && { teamId: placement.teamId }),
  })
  if (account.status === 'disabled' || Object.keys(wants(account)).length === 0) return account
  const { after, changed } = await writeAccountChangeWithin(
    trx,
    account.id,
    (before, { lastActiveAdmin }) => {
      const change = wants(before)
      if (change.roleId !== undefined && lastActiveAdmin) {
        log.warn(
          { provider: provider.name, accountId: before.id },
          "the provider's claims would demote the last active Administrador: the role is left as it is",
        )
        delete change.roleId
      }
      return Object.keys(change).length === 0 ? null : change
    },
    async (trx, before, after) => {
      if (!after) return
      const names = await namesOf(
        trx,
        [before.role_id, after.role_id],
        [before.team_id, after.team_id],
      )
      if (after.role_id !== before.role_id) {
        await recordAccountEvent(trx, 'role_changed', before.id, origin, {
          from: before.role,
          to: after.role,
          from_role: names.role(before.role_id),
          to_role: names.role(after.role_id),
          provider: provider.name,
        })
      }
      if (after.team_id !== before.team_id) {
        await recordAccountEvent(trx, 'team_changed', before.id, origin, {
          from: names.team(before.team_id),
          to: names.team(after.team_id),
          provider: provider.name,
        })
      }
    },
  )
  return changed ? after : account
}

/** Roles' and teams' names by id, for the audit's before and after. */
async function namesOf(db: Db, roleIds: string[], teamIds: (string | null)[]) {
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'name'])
    .where('id', 'in', roleIds)
    .execute()
  const wantedTeams = teamIds.filter((id): id is string => id !== null)
  const teams =
    wantedTeams.length === 0
      ? []
      : await db.selectFrom('teams').select(['id', 'name']).where('id', 'in', wantedTeams).execute()
  return {
    role: (id: string) => roles.find((row) => row.id === id)?.name ?? null,
    team: (id: string | null) => teams.find((row) => row.id === id)?.name ?? null,
  }
}
