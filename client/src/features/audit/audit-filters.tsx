import { AUDIT_TYPES } from '../../../../common/api/audit'
import { auditTypeNames } from '../../../../common/audit-type-names'
import { compareNames } from '../../../../common/name-order'
import { listStaff } from '../../api/staff-list-api'
import { useLoad } from '../../api/use-load'
import type { FilterChanges } from '../../routing/filter-params'
import { FilterBar, FilterDate, FilterSelect } from '../../ui/filter-bar'
import { auditMessages } from './audit-messages'
import { rangeInverted, type Filters } from './audit-query'

const text = auditMessages

/**
 * The people the two person filters offer (the first 100 by name), in the browser's pt-BR order
 * (common/name-order.ts): the server's order agrees, except where names differ only in case.
 */
const fetchPeople = (signal: AbortSignal) =>
  listStaff({ sort: 'name', pageSize: '100' }, signal).then((list) =>
    [...list.items].sort((a, b) => compareNames(a.name, b.name)),
  )

/**
 * Auditoria's filters (folded behind "Filtros" on a phone), each applied as it is chosen, as on
 * Equipe (ui/filter-bar.tsx). An inverted range is said on "Até".
 */
export function AuditFilters({
  filters,
  anySet,
  update,
  clear,
}: {
  filters: Filters
  /** Whether the URL holds any filter, so that "clear" is offered. */
  anySet: boolean
  update: (changes: FilterChanges) => void
  clear: () => void
}) {
  const peopleLoad = useLoad(fetchPeople).load
  // Failing, the filter offers only "anyone"; the log itself still loads.
  const people = peopleLoad.state === 'ready' ? peopleLoad.data : []

  const personOptions = (selected: string | undefined) => [
    ['', text.anyone] as const,
    ...(selected && !people.some((person) => person.id === selected)
      ? [[selected, text.unknownAccount] as const]
      : []),
    ...people.map((person) => [person.id, `${person.name} (${person.email})`] as const),
  ]

  return (
    <FilterBar active={Object.values(filters).filter(Boolean).length} anySet={anySet} clear={clear}>
      <FilterSelect
        label={text.type}
        value={filters.type}
        onChange={(type) => update({ type })}
        long
        options={[
          ['', text.anyType],
          ...AUDIT_TYPES.map((type) => [type, auditTypeNames[type]] as const),
        ]}
      />
      <FilterSelect
        label={text.person}
        value={filters.account}
        onChange={(account) => update({ account })}
        options={personOptions(filters.account)}
        capped
      />
      <FilterSelect
        label={text.actor}
        value={filters.actor}
        onChange={(actor) => update({ actor })}
        options={personOptions(filters.actor)}
        capped
      />
      <FilterDate
        label={text.from}
        value={filters.from}
        max={filters.to}
        onApply={(from) => update({ from })}
      />
      <FilterDate
        label={text.to}
        value={filters.to}
        min={filters.from}
        onApply={(to) => update({ to })}
        error={rangeInverted(filters) ? text.rangeInverted : null}
      />
    </FilterBar>
  )
}
