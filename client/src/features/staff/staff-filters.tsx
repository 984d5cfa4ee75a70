import { STAFF_SORTS, type StaffQuery, type StaffSort } from '../../../../common/api/staff'
import type { FilterChanges } from '../../routing/filter-params'
import { FilterBar, FilterSearch, FilterSelect } from '../../ui/filter-bar'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import type { RoleTeamChoices } from './role-team-choices'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const text = staffMessages.staff

/**
 * The filters live in the URL (`#/equipe?status=pending&q=ana&after=…`): shareable, kept on
 * reload. The page is a cursor (`after`, `before`: common/api/staff.ts), `page=last`, or a number.
 */
export function queryFrom(params: URLSearchParams): StaffQuery {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = params.get(name)
    return allowed.includes(value as T) ? (value as T) : undefined
  }
  const id = (name: string, other?: string) => {
    const value = params.get(name)
    if (value && value === other) return value
    return value && UUID.test(value) ? value.toLowerCase() : undefined
  }
  return {
    q: params.get('q')?.slice(0, 100) || undefined,
    status: pick('status', ['pending', 'invited', 'active', 'disabled'] as const),
    role: pick('role', ['admin', 'staff'] as const),
    roleId: id('roleId'),
    teamId: id('teamId', 'none'),
    locked: pick('locked', ['true', 'false'] as const),
    mfa: pick('mfa', ['true', 'false'] as const),
    sort: pick<StaffSort>('sort', STAFF_SORTS),
    ...position(params),
  }
}

const CURSOR = /^[A-Za-z0-9_-]{1,2000}$/

/** One of the URL's after, before or page, the first valid in that order. */
function position(params: URLSearchParams): Pick<StaffQuery, 'after' | 'before' | 'page'> {
  const after = params.get('after')
  if (after && CURSOR.test(after)) return { after }
  const before = params.get('before')
  if (before && CURSOR.test(before)) return { before }
  const page = params.get('page')
  return page && /^([1-9][0-9]{0,5}|last)$/.test(page) ? { page } : {}
}

/** Changes some filters (an empty value removes one); any change but the page's goes to page 1. */
export type UpdateFilters = (changes: FilterChanges) => void

/** A select's choices from a list, keeping the value in the URL even when the list lacks it. */
function choicesOf(
  items: readonly { id: string; name: string }[],
  value: string | undefined,
  any: string,
  missing: string,
): [string, string][] {
  const choices: [string, string][] = [
    ['', any],
    ...items.map((item): [string, string] => [item.id.toLowerCase(), item.name]),
  ]
  if (value && !choices.some(([id]) => id === value)) choices.push([value, missing])
  return choices
}

/**
 * Equipe's search box and filters (folded behind "Filtros" on a phone), and "clear". Papel and
 * Time choose among the server's roles and teams; without the roles (an older backend) Papel is
 * the old admin or staff, and Time is left out, as it is for someone who sees only their team.
 */
export function StaffFilters({
  query,
  update,
  anySet,
  clear,
  choices,
  ownTeamOnly,
}: {
  query: StaffQuery
  choices: RoleTeamChoices
  /** The viewer's role reaches only their own team: a team filter would mean nothing. */
  ownTeamOnly: boolean
  update: UpdateFilters
  /** Whether the URL holds any filter, so that "clear" is offered. */
  anySet: boolean
  clear: () => void
}) {
  const { roles, teams } = choices
  const activeFilters = [
    query.status,
    query.role,
    query.roleId,
    query.teamId,
    query.locked,
    query.mfa,
    query.sort,
  ].filter((value) => value !== undefined).length
  return (
    <FilterBar
      search={
        <FilterSearch
          label={text.search}
          value={query.q}
          maxLength={100}
          onApply={(q) => update({ q })}
        />
      }
      active={activeFilters}
      anySet={anySet}
      clear={clear}
    >
      <FilterSelect
        label={text.status}
        value={query.status}
        onChange={(status) => update({ status })}
        options={[
          ['', text.any],
          ['pending', adminMessages.statuses.pending],
          ['invited', adminMessages.statuses.invited],
          ['active', adminMessages.statuses.active],
          ['disabled', adminMessages.statuses.disabled],
        ]}
      />
      {roles ? (
        <FilterSelect
          label={text.role}
          value={query.roleId}
          onChange={(roleId) => update({ roleId, role: undefined })}
          options={choicesOf(roles, query.roleId, text.anyRole, text.unknownRole)}
          capped
        />
      ) : (
        <FilterSelect
          label={text.role}
          value={query.role}
          onChange={(role) => update({ role })}
          options={[
            ['', text.anyRole],
            ['admin', adminMessages.roles.admin],
            ['staff', adminMessages.roles.staff],
          ]}
        />
      )}
      {teams && !ownTeamOnly && (
        <FilterSelect
          label={adminMessages.team}
          value={query.teamId}
          onChange={(teamId) => update({ teamId })}
          options={choicesOf(
            [{ id: 'none', name: adminMessages.noTeam }, ...teams],
            query.teamId,
            text.anyTeam,
            text.unknownTeam,
          )}
          capped
        />
      )}
      <FilterSelect
        label={text.locked}
        value={query.locked}
        onChange={(locked) => update({ locked })}
        options={[
          ['', text.any],
          ['true', text.lockedOnly],
          ['false', text.unlockedOnly],
        ]}
      />
      <FilterSelect
        label={text.mfa}
        value={query.mfa}
        onChange={(mfa) => update({ mfa })}
        options={[
          ['', text.any],
          ['true', text.withMfa],
          ['false', text.withoutMfa],
        ]}
      />
      <FilterSelect
        label={text.sort}
        value={query.sort}
        onChange={(sort) => update({ sort })}
        options={[
          ['', text.sorts.default],
          ...(['name', '-name', '-createdAt', 'createdAt', '-lastSignInAt'] as const).map(
            (sort) => [sort, text.sorts[sort]] as const,
          ),
        ]}
      />
    </FilterBar>
  )
}
