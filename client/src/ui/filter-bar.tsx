import { CButton, CFormLabel } from '@coreui/react'
import { useId, type KeyboardEvent, type ReactNode } from 'react'
import { adminMessages } from '../words/admin-messages'
import { FoldedFilters } from './folded-filters'
import { useDraftValue } from './use-draft-value'

/**
 * The filters of a list screen (Equipe, Auditoria), all behaving alike: a select applies when a
 * value is picked, a search or a day applies when typing pauses, on Enter or when the field is
 * left (use-draft-value.ts); there is no "Filtrar" to remember. The values live in the URL
 * (routing/filter-params.ts). On a phone the filters wait behind "Filtros" (folded-filters.tsx)
 * with "Limpar filtros" beside it; from md up they sit in one row after the search, each as wide
 * as its longest value (app.css, "filter bar").
 */
export function FilterBar({
  search,
  active,
  anySet,
  clear,
  children,
}: {
  /** A FilterSearch, above the folded filters on a phone. */
  search?: ReactNode
  /** How many of the folded filters are in use, for the phone's "Filtros (n)". */
  active: number
  /** Whether the URL holds any filter, so that "Limpar filtros" is offered. */
  anySet: boolean
  clear: () => void
  children: ReactNode
}) {
  return (
    <form
      role="search"
      className="d-flex flex-wrap align-items-start gap-2 mb-3"
      // Each field applies itself; Enter in a field must not reload the page.
      onSubmit={(event) => event.preventDefault()}
    >
      {search}
      <FoldedFilters active={active}>{children}</FoldedFilters>
      {anySet && (
        // Level with the fields' controls, below their labels, where it shares their row.
        <CButton type="button" color="link" className="mt-md-4" onClick={clear}>
          {adminMessages.clearFilters}
        </CButton>
      )}
    </form>
  )
}

/** A filter's label above its control, as an item of the bar's row. */
function Field({
  label,
  id,
  className = 'filter-field',
  children,
}: {
  label: string
  id: string
  className?: string
  children: ReactNode
}) {
  return (
    <div className={className}>
      <CFormLabel htmlFor={id} className="small mb-1">
        {label}
      </CFormLabel>
      {children}
    </div>
  )
}

const commitOnEnter = (commit: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key !== 'Enter') return
  event.preventDefault()
  commit()
}

/** A select that applies at once; the empty value is "any". */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  long = false,
  capped = false,
}: {
  label: string
  value: string | undefined
  onChange: (value: string) => void
  options: readonly (readonly [value: string, label: string])[]
  /** Long values (an event's type): a line of its own on a phone, where the others pair up. */
  long?: boolean
  /** Values of unbounded length (a name and an e-mail): long, and kept to a width from md up. */
  capped?: boolean
}) {
  const id = useId()
  return (
    <Field
      label={label}
      id={id}
      className={
        capped
          ? 'filter-field filter-field-long filter-field-capped'
          : long
            ? 'filter-field filter-field-long'
            : undefined
      }
    >
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
    </Field>
  )
}

/** The search box: applies what is typed (trimmed) after a pause, on Enter or on leaving it. */
export function FilterSearch({
  label,
  value,
  onApply,
  maxLength,
}: {
  label: string
  value: string | undefined
  onApply: (value: string) => void
  maxLength: number
}) {
  const id = useId()
  const draft = useDraftValue(value ?? '', onApply, (typed) => typed.trim())
  return (
    <Field label={label} id={id} className="filter-search">
      <input
        id={id}
        className="form-control"
        type="search"
        maxLength={maxLength}
        value={draft.value}
        onChange={(event) => draft.change(event.target.value)}
        onKeyDown={commitOnEnter(draft.commit)}
        onBlur={draft.commit}
      />
    </Field>
  )
}

/** A day (YYYY-MM-DD, empty for none), applied like the search; `error` is said on the field. */
export function FilterDate({
  label,
  value,
  onApply,
  min,
  max,
  error,
}: {
  label: string
  value: string | undefined
  onApply: (value: string) => void
  min?: string
  max?: string
  error?: string | null
}) {
  const id = useId()
  const draft = useDraftValue(value ?? '', onApply)
  return (
    <Field label={label} id={id}>
      <input
        id={id}
        className={`form-control${error ? ' is-invalid' : ''}`}
        type="date"
        // The day first (dd/mm/aaaa) wherever the browser reads the field's language.
        lang="pt-BR"
        min={min}
        max={max}
        value={draft.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => draft.change(event.target.value)}
        onKeyDown={commitOnEnter(draft.commit)}
        onBlur={draft.commit}
      />
      {error && (
        <div id={`${id}-error`} className="invalid-feedback">
          {error}
        </div>
      )}
    </Field>
  )
}
