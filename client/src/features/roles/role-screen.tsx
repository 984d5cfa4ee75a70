import { CButton, CCard, CCardBody } from '@coreui/react'
import { useId, useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom'
import type { RoleItem } from '../../../../common/api/roles'
import { listRoles } from '../../api/roles-and-teams-api'
import { useLoad } from '../../api/use-load'
import { useNameInBreadcrumb } from '../../layout/breadcrumb-detail'
import { paths } from '../../routing/paths'
import { NEW_ROLE_ID, rolePath } from './role-paths'
import { DeleteDialog } from '../../ui/delete-dialog'
import { LoadingLine } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { adminMessages } from '../../words/admin-messages'
import { PermissionMatrix } from './permission-matrix'
import { RoleForm } from './role-form'
import { RoleHolders } from './role-holders'
import { roleBody, roleChanges } from './role-draft'
import { changeRole, createRole, deleteRole } from './roles-api'
import { rolesMessages } from './roles-messages'

const text = rolesMessages.role

/** What a screen that sent someone here wants them told (a role created, one deleted). */
export type NoticeState = { notice?: string } | null

/** The role of this page from the list (the API has no single role's GET). */
async function fetchRole(id: string, signal: AbortSignal): Promise<RoleItem | null> {
  const { roles } = await listRoles(signal)
  return roles.find((role) => role.id.toLowerCase() === id.toLowerCase()) ?? null
}

/** Above each state of a role's page, the way back to the list. */
function BackToRoles() {
  return (
    <p className="mb-2">
      <Link to={paths.roles}>{text.back}</Link>
    </p>
  )
}

/** A new role (`#/papeis/novo`): the form; once created, its own page. */
function NewRole() {
  const navigate = useNavigate()
  return (
    <>
      <BackToRoles />
      <h1 className="h2 mb-3">{text.newTitle}</h1>
      <RoleForm
        save={async (draft) => {
          const { role } = await createRole(roleBody(draft))
          void navigate(rolePath(role.id), {
            replace: true,
            state: { notice: rolesMessages.form.created(role.name) } satisfies NoticeState,
          })
        }}
        onCancel={() => void navigate(paths.roles)}
      />
    </>
  )
}

/** `#/papeis/:id`: the role's matrix, scope and holders; a custom one is edited or deleted here. */
export default function RoleScreen() {
  const { id = '' } = useParams()
  if (id === NEW_ROLE_ID) return <NewRole />
  return <ExistingRole key={id} id={id} />
}

function ExistingRole({ id }: { id: string }) {
  const navigate = useNavigate()
  const location = useLocation()
  const [notice, setNotice] = useState<string | null>(
    () => (location.state as NoticeState)?.notice ?? null,
  )
  const [editing, setEditing] = useState(false)
  const { load, set } = useLoad((signal) => fetchRole(id, signal), id)
  const role = load.state === 'ready' ? load.data : null
  useNameInBreadcrumb(role?.name ?? null)
  const removal = useConfirmedAction<RoleItem>()
  const inUseId = useId()

  if (load.state === 'loading') {
    return <LoadingLine />
  }
  if (load.state === 'failed' || !role) {
    return (
      <>
        <BackToRoles />
        <h1 className="h2 mb-3">{rolesMessages.list.title}</h1>
        <Notice
          color={load.state === 'failed' ? 'danger' : 'warning'}
          text={load.state === 'failed' ? load.message : text.notFound}
        />
      </>
    )
  }

  if (editing) {
    return (
      <>
        <BackToRoles />
        <h1 className="h2 mb-3" style={{ overflowWrap: 'anywhere' }}>
          {role.name}
        </h1>
        <RoleForm
          role={role}
          save={async (draft) => {
            const changes = roleChanges(role, draft)
            if (changes === null) {
              setNotice(rolesMessages.form.unchanged)
            } else {
              const { role: saved } = await changeRole(role.id, changes)
              set({ state: 'ready', data: saved })
              setNotice(rolesMessages.form.saved(saved.name))
            }
            setEditing(false)
          }}
          onCancel={() => setEditing(false)}
        />
      </>
    )
  }

  const inUse = role.peopleCount > 0
  return (
    <>
      <BackToRoles />
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h2 mb-0 me-auto" style={{ overflowWrap: 'anywhere' }}>
          {role.name}{' '}
          {role.builtIn && (
            <span className="badge text-bg-secondary fs-6 align-middle">
              {rolesMessages.list.builtIn}
            </span>
          )}
        </h1>
        {!role.builtIn && (
          // The actions together: on a phone both go under the name, never one beside it and
          // the other a line below.
          <div className="d-flex gap-2">
            <CButton
              color="primary"
              variant="outline"
              onClick={() => {
                setNotice(null)
                setEditing(true)
              }}
            >
              {text.edit}
            </CButton>
            {/* Held by someone, a role cannot go (409 role_in_use): the button says so up
                front rather than after a try, and the reason below is its description. */}
            <CButton
              color="danger"
              variant="outline"
              disabled={inUse}
              aria-describedby={inUse ? inUseId : undefined}
              onClick={() => removal.ask(role)}
            >
              {text.delete}
            </CButton>
          </div>
        )}
      </div>
      {!role.builtIn && inUse && (
        <p id={inUseId} className="small text-body-secondary">
          {text.inUse(role.peopleCount)}
        </p>
      )}
      <Notice color="success" text={notice} />
      {role.builtIn && <Notice color="info" text={text.builtIn} />}
      <CCard className="mb-3">
        <CCardBody>
          <dl className="row mb-0">
            <dt className="col-sm-3">{text.description}</dt>
            <dd className="col-sm-9">{role.description || text.noDescription}</dd>
            <dt className="col-sm-3">{text.scope}</dt>
            <dd className="col-sm-9 mb-0">
              {adminMessages.scopes[role.scope]}
              <div className="small text-body-secondary">{text.scopeHints[role.scope]}</div>
            </dd>
          </dl>
        </CCardBody>
      </CCard>
      <CCard className="mb-3">
        <CCardBody>
          <h2 className="h5">{text.matrix}</h2>
          <PermissionMatrix granted={role.permissions} />
        </CCardBody>
      </CCard>
      <RoleHolders roleId={role.id} />
      <DeleteDialog
        removal={removal}
        words={text}
        remove={deleteRole}
        onDeleted={(doomed) =>
          void navigate(paths.roles, {
            state: { notice: text.deleted(doomed.name) } satisfies NoticeState,
          })
        }
      />
    </>
  )
}
