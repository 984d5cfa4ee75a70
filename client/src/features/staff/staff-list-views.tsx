import { CCard, CCardBody } from '@coreui/react'
import { useEffect, useRef } from 'react'
import { Link } from 'react-router-dom'
import type { StaffMember } from '../../api/staff-list-api'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { formatDate, formatDateTime } from '../../ui/format-date'
import { bulkMessages } from './bulk-messages'
import { PersonActions, type StaffActionKind } from './staff-actions'
import type { StaffSelection } from './staff-selection'
import { StaffBadges } from './status-badge'
import { WholeEmail } from './whole-email'

const text = staffMessages.staff

interface ViewProps {
  accounts: readonly StaffMember[]
  meId: string | undefined
  ask: (kind: StaffActionKind, account: StaffMember) => void
  selection: StaffSelection
  /** The backend has teams: the Time column (cards: the team beside the role). */
  showTeam: boolean
}

/** The role as the server names it; the old two roles' words from an older backend. */
export const roleNameOf = (account: StaffMember) =>
  account.roleName ?? adminMessages.roles[account.role]
const teamNameOf = (account: StaffMember) => account.teamName ?? adminMessages.noTeam

/** The name, whole (it wraps between words), with "(você)" kept beside it. */
function NameLink({ account, meId }: { account: StaffMember; meId: string | undefined }) {
  return (
    <span style={{ overflowWrap: 'break-word' }}>
      <Link to={`/equipe/${account.id}`} aria-label={text.open(account.name)}>
        {account.name}
      </Link>
      {account.id === meId && (
        <span className="text-body-secondary text-nowrap"> {adminMessages.you}</span>
      )}
    </span>
  )
}

function RowCheckbox({ account, selection }: { account: StaffMember; selection: StaffSelection }) {
  if (!selection.selectable(account)) return null
  return (
    <input
      type="checkbox"
      className="form-check-input m-0"
      aria-label={bulkMessages.select(account.name)}
      checked={selection.isSelected(account.id)}
      onChange={() => selection.toggle(account.id)}
    />
  )
}

/** "Selecionar todos desta página": checked, unchecked, or mixed when some are. */
export function PageCheckbox({
  selection,
  withLabel = false,
}: {
  selection: StaffSelection
  withLabel?: boolean
}) {
  const box = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (box.current) box.current.indeterminate = selection.page === 'some'
  }, [selection.page])
  const input = (
    <input
      ref={box}
      type="checkbox"
      className="form-check-input m-0"
      aria-label={withLabel ? undefined : bulkMessages.selectAll}
      checked={selection.page === 'all'}
      onChange={selection.togglePage}
    />
  )
  if (!withLabel) return input
  return (
    <label className="d-inline-flex align-items-center gap-2 mb-2">
      {input}
      {bulkMessages.selectAll}
    </label>
  )
}

const lastSignIn = (account: StaffMember) =>
  account.lastSignInAt ? formatDateTime(account.lastSignInAt) : adminMessages.never

const TIME = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'short' })

/** The table's last sign-in: the day on one line, the hour on the next, never cut between. */
function LastSignInCell({ account }: { account: StaffMember }) {
  if (!account.lastSignInAt) return <>{adminMessages.never}</>
  return (
    <>
      <span className="d-block text-nowrap">{formatDate(account.lastSignInAt)}</span>
      <span className="d-block text-nowrap">{TIME.format(new Date(account.lastSignInAt))}</span>
    </>
  )
}

/**
 * A role's or a team's name in the table: on one line as long as it is short (the column takes
 * the room it needs), wrapping between words beyond 10rem (names run to 60 characters).
 */
const ROLE_OR_TEAM = { display: 'block', width: 'max-content', maxWidth: '10rem' } as const

/**
 * Wide screens: the table fits the content area. The name and the e-mail share the one wide
 * column, both whole (the e-mail on its own line, wrapping only after "@" and before dots); the
 * role and the team are stacked in one column, the last sign-in's day over its hour; the other
 * columns take only the room their words need, the status badge on one line.
 */
export function StaffTable({ accounts, meId, ask, selection, showTeam }: ViewProps) {
  const selecting = accounts.some(selection.selectable)
  return (
    <table className="table align-middle mb-0">
      <caption className="visually-hidden">{text.listLabel}</caption>
      <thead>
        <tr>
          {selecting && (
            <th scope="col" style={{ width: '1%' }}>
              <PageCheckbox selection={selection} />
            </th>
          )}
          <th scope="col" style={{ minWidth: '12rem' }}>
            {text.columns.person}
          </th>
          <th scope="col" className="text-nowrap" style={{ width: '1%' }}>
            {showTeam ? text.columns.roleAndTeam : text.columns.role}
          </th>
          <th scope="col" style={{ width: '1%' }}>
            {text.columns.status}
          </th>
          <th scope="col" className="text-nowrap" style={{ width: '1%' }}>
            {text.columns.lastSignIn}
          </th>
          <th scope="col" style={{ width: '1%' }}>
            {text.columns.actions}
          </th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id}>
            {selecting && (
              <td>
                <RowCheckbox account={account} selection={selection} />
              </td>
            )}
            <th scope="row" className="fw-normal">
              <NameLink account={account} meId={meId} />
              <WholeEmail email={account.email} className="small text-body-secondary" />
            </th>
            <td>
              <span style={ROLE_OR_TEAM}>{roleNameOf(account)}</span>
              {showTeam && (
                <span className="small text-body-secondary" style={ROLE_OR_TEAM}>
                  {teamNameOf(account)}
                </span>
              )}
            </td>
            <td>
              <StaffBadges account={account} />
            </td>
            <td className="small">
              <LastSignInCell account={account} />
            </td>
            <td className="text-nowrap">
              <PersonActions account={account} meId={meId} ask={ask} compact />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Phones and narrow windows: one card per account, every action inside it. */
export function StaffCards({ accounts, meId, ask, selection, showTeam }: ViewProps) {
  return (
    <>
      {accounts.some(selection.selectable) && <PageCheckbox selection={selection} withLabel />}
      <ul className="list-unstyled d-flex flex-column gap-3 mb-0" aria-label={text.listLabel}>
        {accounts.map((account) => (
          <li key={account.id}>
            <CCard>
              <CCardBody>
                <div className="d-flex align-items-start gap-2">
                  {/* No empty box beside the name where there is no checkbox: it would indent it. */}
                  {selection.selectable(account) && (
                    <div className="pt-1">
                      <RowCheckbox account={account} selection={selection} />
                    </div>
                  )}
                  <div className="flex-grow-1" style={{ minWidth: 0 }}>
                    <h2 className="h6 mb-1">
                      <NameLink account={account} meId={meId} />
                    </h2>
                    <WholeEmail email={account.email} />
                  </div>
                </div>
                <div className="d-flex flex-wrap align-items-center gap-2 my-2">
                  <StaffBadges account={account} />
                  <span className="small text-body-secondary">
                    {roleNameOf(account)}
                    {showTeam && ` · ${teamNameOf(account)}`} · {text.columns.since}{' '}
                    {formatDate(account.createdAt)} · {text.columns.lastSignIn}:{' '}
                    {lastSignIn(account)}
                  </span>
                </div>
                <PersonActions account={account} meId={meId} ask={ask} />
              </CCardBody>
            </CCard>
          </li>
        ))}
      </ul>
    </>
  )
}
