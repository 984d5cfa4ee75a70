import { CButton, CFormInput, CFormLabel, CSpinner } from '@coreui/react'
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import {
  STAFF_SORTS,
  type StaffList,
  type StaffQuery,
  type StaffSort,
} from '../../../../common/api/staff'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { listStaff } from '../../api/staff-list-api'
import { errorMessage } from '../../api/api-client'
import { Notice } from '../../ui/notice'
import { useMediaQuery, WIDE } from '../../ui/use-media-query'
import { useRefreshOnFocus } from '../../api/use-refresh-on-focus'
import { useCurrentUser } from '../../session/current-user'
import { hasDraft } from '../../session/form-draft'
import { paths } from '../../routing/paths'
import { FoldedFilters } from '../../ui/folded-filters'
import { INVITE_DRAFT, InviteDialog } from './invite-dialog'
import { useStaffActions } from './staff-actions'
import { StaffCards, StaffTable } from './staff-list-views'

const text = staffMessages.staff

/** The filters live in the URL (`#/equipe?status=pending&q=ana&page=2`): shareable, kept on reload. */
function queryFrom(params: URLSearchParams): StaffQuery {
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

type Load =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; list: StaffList }

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

/** Equipe (admins): find accounts, act on them, invite people. */
export default function StaffScreen() {
  const { user: me } = useCurrentUser()
  const [params, setParams] = useSearchParams()
  const query = queryFrom(params)
  const queryKey = JSON.stringify(query)
  const activeFilters = [query.status, query.role, query.locked, query.mfa, query.sort].filter(
    (value) => value !== undefined,
  ).length
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [reloads, setReloads] = useState(0)
  const [notice, setNotice] = useState<string | null>(null)
  // An invitation being typed when the session ended is opened again, as it was left.
  const [inviting, setInviting] = useState(() => hasDraft(paths.staff, INVITE_DRAFT))
  const wide = useMediaQuery(WIDE)
  const searchId = useId()
  const reload = useCallback(() => setReloads((count) => count + 1), [])
  useRefreshOnFocus(reload)

  useEffect(() => {
    const controller = new AbortController()
    listStaff(JSON.parse(queryKey) as StaffQuery, controller.signal).then(
      (list) => setLoad({ state: 'ready', list }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setLoad({
          state: 'failed',
          message: errorMessage(error),
        })
      },
    )
    return () => controller.abort()
  }, [queryKey, reloads])

  const { ask, dialog } = useStaffActions((said) => {
    setNotice(said)
    reload()
  })

  /** Changes some filters; any change but the page's goes back to page 1. */
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params)
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value)
      else next.delete(key)
    }
    if (!('page' in changes)) next.delete('page')
    setParams(next)
  }

  const list = load.state === 'ready' ? load.list : null
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1
  const page = Number(query.page ?? 1)
  let body: ReactNode
  if (load.state === 'loading') {
    body = (
      <div className="d-flex align-items-center gap-2" role="status">
        <CSpinner size="sm" aria-hidden="true" />
        {adminMessages.loading}
      </div>
    )
  } else if (load.state === 'failed') {
    body = <Notice text={load.message} />
  } else if (load.list.items.length === 0) {
    body = <p>{text.empty}</p>
  } else if (wide) {
    body = <StaffTable accounts={load.list.items} meId={me?.id} ask={ask} />
  } else {
    body = <StaffCards accounts={load.list.items} meId={me?.id} ask={ask} />
  }

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <CButton color="secondary" variant="outline" onClick={reload}>
          {adminMessages.refresh}
        </CButton>
        <CButton color="primary" onClick={() => setInviting(true)}>
          {text.invite}
        </CButton>
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice color="success" text={notice} />

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
        {params.size > 0 && (
          <CButton type="button" color="link" onClick={() => setParams(new URLSearchParams())}>
            {text.clear}
          </CButton>
        )}
      </form>

      {list && (
        <p className="small text-body-secondary mb-2" role="status">
          {text.total(list.total)}
        </p>
      )}
      {body}
      {list && pages > 1 && (
        <nav aria-label={text.pagination} className="d-flex align-items-center gap-2 mt-3">
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => update({ page: String(page - 1) })}
          >
            {text.previous}
          </CButton>
          <span>{text.page(page, pages)}</span>
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            disabled={page >= pages}
            onClick={() => update({ page: String(page + 1) })}
          >
            {text.next}
          </CButton>
        </nav>
      )}
      {dialog}
      {inviting && (
        <InviteDialog
          onCancel={() => setInviting(false)}
          onDone={(said) => {
            setInviting(false)
            setNotice(said)
            reload()
          }}
        />
      )}
    </>
  )
}
