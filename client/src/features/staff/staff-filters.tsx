import { STAFF_SORTS, type StaffQuery, type StaffSort } from '../../../../common/api/staff'
import type { FilterChanges } from '../../routing/filter-params'
import { FilterBar, FilterSearch, FilterSelect } from '../../ui/filter-bar'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'

const text = staffMessages.staff

/** The filters live in the URL (`#/equipe?status=pending&q=ana&page=2`): shareable, kept on reload. */
export function queryFrom(params: URLSearchParams): StaffQuery {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = params.get(name)
    return allowed.includes(value as T) ? (value as T) : undefined
  }
  const page = params.get('page')
  return {
    q: params.get('q')?.slice(0, 100) || undefined,
    status: pick('status', ['pending', 'invited', 'active', 'disabled'] as const),
    role: pick('role', ['admin', 'staff'] as const),
    locked: pick('locked', ['true', 'false'] as const),
    mfa: pick('mfa', ['true', 'false'] as const),
    sort: pick<StaffSort>('sort', STAFF_SORTS),
    page: page && /^[1-9][0-9]{0,5}$/.test(page) ? page : undefined,
  }
}

/** Changes some filters (an empty value removes one); any change but the page's goes to page 1. */
export type UpdateFilters = (changes: FilterChanges) => void

/** Equipe's search box and filters (folded behind "Filtros" on a phone), and "clear". */
export function StaffFilters({
  query,
  update,
  anySet,
  clear,
}: {
  query: StaffQuery
  update: UpdateFilters
  /** Whether the URL holds any filter, so that "clear" is offered. */
  anySet: boolean
  clear: () => void
}) {
  const activeFilters = [query.status, query.role, query.locked, query.mfa, query.sort].filter(
    (value) => value !== undefined,
  ).length
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
