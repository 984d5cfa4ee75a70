import { CCard, CCardBody } from '@coreui/react'
import { Link } from 'react-router-dom'
import type { StaffItem } from '../../../../common/api/staff'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { formatDate, formatDateTime } from '../../ui/format-date'
import { StaffActionButtons, type StaffActionKind } from './staff-actions'
import { StaffBadges } from './status-badge'
import { TruncatedText } from '../../ui/truncated-text'

const text = staffMessages.staff

interface ViewProps {
  accounts: readonly StaffItem[]
  meId: string | undefined
  ask: (kind: StaffActionKind, account: StaffItem) => void
}

function NameLink({ account, meId }: { account: StaffItem; meId: string | undefined }) {
  return (
    <TruncatedText text={account.name}>
      <Link to={`/equipe/${account.id}`} aria-label={text.open(account.name)}>
        {account.name}
      </Link>
      {account.id === meId && <span className="text-body-secondary"> {adminMessages.you}</span>}
    </TruncatedText>
  )
}

const lastSignIn = (account: StaffItem) =>
  account.lastSignInAt ? formatDateTime(account.lastSignInAt) : adminMessages.never

/**
 * Wide screens: a table of fixed column widths, so an 80-character e-mail is cut (whole on hover
 * and focus) instead of widening the table and pushing the actions out.
 */
export function StaffTable({ accounts, meId, ask }: ViewProps) {
  return (
    <table className="table align-middle mb-0" style={{ tableLayout: 'fixed', width: '100%' }}>
      <caption className="visually-hidden">{text.listLabel}</caption>
      <colgroup>
        <col style={{ width: '18%' }} />
        <col style={{ width: '20%' }} />
        {/* "Administrador" whole at 1280 px; narrower, it breaks rather than spill. */}
        <col style={{ width: '14%' }} />
        <col style={{ width: '15%' }} />
        <col style={{ width: '13%' }} />
        <col style={{ width: '20%' }} />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">{text.columns.name}</th>
          <th scope="col">{text.columns.email}</th>
          <th scope="col">{text.columns.role}</th>
          <th scope="col">{text.columns.status}</th>
          <th scope="col">{text.columns.lastSignIn}</th>
          <th scope="col">{text.columns.actions}</th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id}>
            <th scope="row" className="fw-normal">
              <NameLink account={account} meId={meId} />
            </th>
            <td>
              <TruncatedText text={account.email} focusable />
            </td>
            <td style={{ overflowWrap: 'anywhere' }}>{adminMessages.roles[account.role]}</td>
            <td>
              <StaffBadges account={account} />
            </td>
            <td>{lastSignIn(account)}</td>
            <td>{account.id !== meId && <StaffActionButtons account={account} ask={ask} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Phones and narrow windows: one card per account, every action inside it. */
export function StaffCards({ accounts, meId, ask }: ViewProps) {
  return (
    <ul className="list-unstyled d-flex flex-column gap-3 mb-0" aria-label={text.listLabel}>
      {accounts.map((account) => (
        <li key={account.id}>
          <CCard>
            <CCardBody>
              <h2 className="h6 mb-1">
                <NameLink account={account} meId={meId} />
              </h2>
              <TruncatedText text={account.email} focusable />
              <div className="d-flex flex-wrap align-items-center gap-2 my-2">
                <StaffBadges account={account} />
                <span className="small text-body-secondary">
                  {adminMessages.roles[account.role]} · {text.columns.since}{' '}
                  {formatDate(account.createdAt)} · {text.columns.lastSignIn}: {lastSignIn(account)}
                </span>
              </div>
              {account.id !== meId && <StaffActionButtons account={account} ask={ask} />}
            </CCardBody>
          </CCard>
        </li>
      ))}
    </ul>
  )
}
