import { CButton, CCard, CCardBody } from '@coreui/react'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import type { TeamItem } from '../../../../common/api/roles'
import { listTeams } from '../../api/roles-and-teams-api'
import { useLoad } from '../../api/use-load'
import { useRefreshOnFocus } from '../../api/use-refresh-on-focus'
import { staffAccountPath, staffOfPath } from '../../routing/paths'
import { DeleteDialog } from '../../ui/delete-dialog'
import { LoadingLine, StaleNotice } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { RefreshButton } from '../../ui/refresh-button'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { adminMessages } from '../../words/admin-messages'
import { TeamDialog } from './team-dialog'
import { teamBody, teamChanges } from './team-draft'
import { changeTeam, createTeam, deleteTeam } from './teams-api'
import { teamsMessages } from './teams-messages'

const text = teamsMessages.list

function TeamCard({
  team,
  onEdit,
  onDelete,
}: {
  team: TeamItem
  onEdit: () => void
  onDelete: () => void
}) {
  return (
    <CCard className="h-100">
      <CCardBody className="d-flex flex-column">
        <h2 className="h5 mb-1" style={{ overflowWrap: 'anywhere' }}>
          {team.name}
        </h2>
        {/* Under the name on every card, whatever the name's length: open or closed, the same
            place, so that the cards read alike side by side. */}
        <div className="mb-2">
          {team.open ? (
            <span className="badge text-bg-info">{text.open}</span>
          ) : (
            <span className="badge bg-secondary-subtle text-secondary-emphasis border border-secondary-subtle">
              {text.closed}
            </span>
          )}
        </div>
        {team.description && <p className="small mb-2">{team.description}</p>}
        <dl className="small mb-3 flex-grow-1">
          <dt>{text.managers}</dt>
          <dd className="mb-1">
            {team.managers.length === 0 ? (
              <span className="text-body-secondary">{text.noManagers}</span>
            ) : (
              <>
                {team.managers.map((manager, index) => (
                  <span key={manager.id}>
                    {index > 0 && ', '}
                    <Link
                      to={staffAccountPath(manager.id)}
                      aria-label={text.openPerson(manager.name)}
                    >
                      {manager.name}
                    </Link>
                  </span>
                ))}
                {team.managerCount > team.managers.length &&
                  ` ${text.moreManagers(team.managerCount - team.managers.length)}`}
              </>
            )}
          </dd>
          <dt className="visually-hidden">{adminMessages.members}</dt>
          <dd className="mb-0">
            {team.memberCount === 0 ? (
              text.members(0)
            ) : (
              <Link
                to={staffOfPath('teamId', team.id)}
                aria-label={text.membersOf(team.memberCount, team.name)}
              >
                {text.members(team.memberCount)}
              </Link>
            )}
          </dd>
        </dl>
        <div className="d-flex flex-wrap gap-2">
          <CButton
            size="sm"
            color="primary"
            variant="outline"
            aria-label={text.editTeam(team.name)}
            onClick={onEdit}
          >
            {text.edit}
          </CButton>
          <CButton
            size="sm"
            color="danger"
            variant="outline"
            aria-label={text.deleteTeam(team.name)}
            onClick={onDelete}
          >
            {text.delete}
          </CButton>
        </div>
      </CCardBody>
    </CCard>
  )
}

/** Times (teams.manage): the teams with their managers and members; create, edit, delete. */
export default function TeamsScreen() {
  const { load, reload, busy } = useLoad(listTeams, '', { keepOnFailure: true })
  useRefreshOnFocus(reload)
  const [notice, setNotice] = useState<string | null>(null)
  /** The team whose dialog is open: `new` for a new one. */
  const [editing, setEditing] = useState<TeamItem | 'new' | null>(null)
  const removal = useConfirmedAction<TeamItem>()

  let body
  if (load.state === 'loading') {
    body = <LoadingLine />
  } else if (load.state === 'failed') {
    body = <Notice text={load.message} />
  } else if (load.data.teams.length === 0) {
    body = <p>{text.empty}</p>
  } else {
    body = (
      <ul
        className="list-unstyled row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3 mb-0"
        aria-label={text.label}
      >
        {load.data.teams.map((team) => (
          <li key={team.id} className="col">
            <TeamCard
              team={team}
              onEdit={() => setEditing(team)}
              onDelete={() => removal.ask(team)}
            />
          </li>
        ))}
      </ul>
    )
  }

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <RefreshButton busy={busy} onClick={reload} />
        <CButton color="primary" onClick={() => setEditing('new')}>
          {text.create}
        </CButton>
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice color="success" text={notice} />
      <StaleNotice load={load} />
      {body}
      {editing !== null && (
        <TeamDialog
          team={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(null)}
          save={async (draft) => {
            if (editing === 'new') {
              const { team } = await createTeam(teamBody(draft))
              setNotice(teamsMessages.form.created(team.name))
            } else {
              const changes = teamChanges(editing, draft)
              if (changes) {
                const { team } = await changeTeam(editing.id, changes)
                setNotice(teamsMessages.form.saved(team.name))
              }
            }
            setEditing(null)
            reload()
          }}
        />
      )}
      <DeleteDialog
        removal={removal}
        words={text}
        remove={deleteTeam}
        onDeleted={(doomed) => {
          setNotice(text.deleted(doomed.name))
          reload()
        }}
      />
    </>
  )
}
