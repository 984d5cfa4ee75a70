import { CButton } from '@coreui/react'
import { useState, type ReactNode } from 'react'
import { STAFF_BULK_ACTIONS } from '../../../../common/api/staff'
import { staffMessages } from './staff-messages'
import type { StaffQuery } from '../../../../common/api/staff'
import { listStaff } from '../../api/staff-list-api'
import { useLoad } from '../../api/use-load'
import { LoadingLine, StaleNotice } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { RefreshButton } from '../../ui/refresh-button'
import { useListTop } from '../../ui/use-list-top'
import { PHONE, useMediaQuery, WIDE } from '../../ui/use-media-query'
import { useRefreshOnFocus } from '../../api/use-refresh-on-focus'
import { useCurrentUser } from '../../session/current-user'
import { useAccess } from '../../session/use-access'
import { hasDraft } from '../../session/form-draft'
import { useFilterParams } from '../../routing/filter-params'
import { paths } from '../../routing/paths'
import { DeletionRequestsLink } from './deletion-requests-link'
import { INVITE_DRAFT, InviteDialog } from './invite-dialog'
import { useStaffActions } from './staff-actions'
import { useBulkActions } from './bulk-actions'
import { useStaffSelection } from './staff-selection'
import { queryFrom, StaffFilters } from './staff-filters'
import { StaffCards, StaffTable } from './staff-list-views'
import { StaffPagination } from './staff-pagination'
import { bulkActionsAllowed } from './staff-action-rules'
import { useRoleTeamChoices } from './role-team-choices'

const text = staffMessages.staff

/**
 * Equipe (staff.view): find accounts, act on them, invite people; each action only for whoever
 * may take it, and with a role of scope `team`, only the people of one's own team (the server
 * lists no one else).
 */
export default function StaffScreen() {
  const { user: me } = useCurrentUser()
  const access = useAccess()
  const choices = useRoleTeamChoices(access.hasRoles)
  const bulkAllowed = bulkActionsAllowed(STAFF_BULK_ACTIONS, access.can)
  const { params, update, clear } = useFilterParams()
  const query = queryFrom(params)
  const queryKey = JSON.stringify(query)
  // A refresh that fails (offline) keeps the accounts on screen, saying they may be out of date.
  const { load, reload, busy } = useLoad(
    (signal) => listStaff(JSON.parse(queryKey) as StaffQuery, signal),
    queryKey,
    { keepOnFailure: true },
  )
  const { attach: attachListTop, show: showListTop } = useListTop<HTMLParagraphElement>(!busy)
  const [notice, setNotice] = useState<string | null>(null)
  // An invitation being typed when the session ended is opened again, as it was left.
  const [inviting, setInviting] = useState(() => hasDraft(paths.staff, INVITE_DRAFT))
  const wide = useMediaQuery(WIDE)
  useRefreshOnFocus(reload)

  const list = load.state === 'ready' ? load.data : null
  // Selections last for one page of one search: see staff-selection.ts.
  const selection = useStaffSelection(list?.items ?? [], me?.id, queryKey, bulkAllowed.length > 0)
  // On a phone the selection bar follows the list, pinned to the screen's bottom (bulk-actions.tsx).
  const phone = useMediaQuery(PHONE)
  const bulk = useBulkActions(
    selection,
    bulkAllowed,
    () => {
      setNotice(null)
      reload()
    },
    phone,
  )
  const { ask, dialog } = useStaffActions((said) => {
    bulk.dismissSummary()
    setNotice(said)
    reload()
  })

  let body: ReactNode
  if (load.state === 'loading') {
    body = <LoadingLine />
  } else if (load.state === 'failed') {
    body = <Notice text={load.message} />
  } else if (load.data.items.length === 0) {
    body = <p>{text.empty}</p>
  } else {
    // A table where its columns fit (WIDE), cards below that: the same props.
    const View = wide ? StaffTable : StaffCards
    body = (
      <View
        accounts={load.data.items}
        meId={me?.id}
        ask={ask}
        selection={selection}
        showTeam={access.hasRoles}
      />
    )
  }

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <RefreshButton busy={busy} onClick={reload} />
        {access.can('staff.delete') && <DeletionRequestsLink />}
        {access.can('staff.invite') && (
          <CButton color="primary" onClick={() => setInviting(true)}>
            {text.invite}
          </CButton>
        )}
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice color="success" text={notice} />
      {bulk.summary}

      <StaffFilters
        query={query}
        update={update}
        anySet={params.size > 0}
        clear={clear}
        choices={choices}
        ownTeamOnly={access.scope === 'team'}
      />

      <StaleNotice load={load} />
      {list && (
        <p
          ref={attachListTop}
          tabIndex={-1}
          className="small text-body-secondary mb-2"
          role="status"
        >
          {list.totalExact === false ? text.moreThan(list.total) : text.total(list.total)}
        </p>
      )}
      {!phone && bulk.bar}
      {body}
      {list && (
        <StaffPagination
          list={list}
          goTo={(changes) => {
            update(changes)
            showListTop()
          }}
        />
      )}
      {phone && bulk.bar}
      {dialog}
      {bulk.dialog}
      {/* A kept draft is put back once the role and team selects have their options. */}
      {inviting && access.can('staff.invite') && choices.settled && (
        <InviteDialog
          choices={choices}
          access={access}
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
