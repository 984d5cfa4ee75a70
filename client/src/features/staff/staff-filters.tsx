import { CButton, CFormInput, CFormLabel } from '@coreui/react'
import { useId } from 'react'
import { STAFF_SORTS, type StaffQuery, type StaffSort } from '../../../../common/api/staff'
import { FoldedFilters } from '../../ui/folded-filters'
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

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string
  value: string | undefined
  onChange: (value: string) => void
  options: readonly (readonly [string, string])[]
}) {
  const id = useId()
  return (
    <div style={{ flex: '1 1 10rem' }}>
      <CFormLabel htmlFor={id} className="small mb-1">
        {label}
      </CFormLabel>
      <select
        id={id}
        className="form-select"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Changes some filters (an empty value removes one); any change but the page's goes to page 1. */
export type UpdateFilters = (changes: Record<string, string | undefined>) => void

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
  const searchId = useId()
  const activeFilters = [query.status, query.role, query.locked, query.mfa, query.sort].filter(
    (value) => value !== undefined,
  ).length
  return (
    <form
      role="search"
      className="d-flex flex-wrap align-items-end gap-2 mb-3"
      onSubmit={(event) => {
        event.preventDefault()
        const q = new FormData(event.currentTarget).get('q')
        update({ q: typeof q === 'string' ? q.trim() : undefined })
      }}
    >
      <div className="staff-search">
        <CFormLabel htmlFor={searchId} className="small mb-1">
          {text.search}
        </CFormLabel>
        <CFormInput
          id={searchId}
          key={query.q ?? ''}
          name="q"
          type="search"
          maxLength={100}
          defaultValue={query.q ?? ''}
        />
      </div>
      <FoldedFilters active={activeFilters}>
        <Select
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
        <Select
          label={text.role}
          value={query.role}
          onChange={(role) => update({ role })}
          options={[
            ['', text.anyRole],
            ['admin', adminMessages.roles.admin],
            ['staff', adminMessages.roles.staff],
          ]}
        />
        <Select
          label={text.locked}
          value={query.locked}
          onChange={(locked) => update({ locked })}
          options={[
            ['', text.any],
            ['true', text.lockedOnly],
            ['false', text.unlockedOnly],
          ]}
        />
        <Select
          label={text.mfa}
          value={query.mfa}
          onChange={(mfa) => update({ mfa })}
          options={[
            ['', text.any],
            ['true', text.withMfa],
            ['false', text.withoutMfa],
          ]}
        />
        <Select
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
      </FoldedFilters>
      {/* After the filters in the page's order too, so Tab meets it where it is drawn: beside
          "Filtros" on a phone (the filters folded), at the row's end from md up. */}
      <CButton type="submit" color="primary" variant="outline">
        {text.apply}
      </CButton>
      {anySet && (
        <CButton type="button" color="link" onClick={clear}>
          {text.clear}
        </CButton>
      )}
    </form>
  )
}
