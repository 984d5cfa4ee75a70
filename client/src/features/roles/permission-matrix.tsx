import { CFormCheck } from '@coreui/react'
import { permissionDescriptions, type Permission } from '../../../../common/permissions'
import { permissionGroups } from './permission-groups'
import { rolesMessages } from './roles-messages'

const text = rolesMessages.role

/**
 * A role's permissions, grouped (Equipe, Auditoria, Administração), each by its pt-BR
 * description: a table of what is and is not allowed, to read.
 */
export function PermissionMatrix({ granted }: { granted: readonly Permission[] }) {
  return (
    <div className="d-flex flex-column gap-3">
      {permissionGroups().map(({ group, permissions }) => (
        <table key={group} className="table table-sm align-middle mb-0">
          <caption className="caption-top fw-semibold text-body pb-1">{text.groups[group]}</caption>
          <tbody>
            {permissions.map((permission) => {
              const allowed = granted.includes(permission)
              return (
                <tr key={permission}>
                  <th scope="row" className="fw-normal">
                    {permissionDescriptions[permission]}
                  </th>
                  <td className="text-end text-nowrap" style={{ width: '1%' }}>
                    {allowed ? (
                      <span className="badge text-bg-success">{text.allowed}</span>
                    ) : (
                      <span className="text-body-secondary small">{text.notAllowed}</span>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      ))}
    </div>
  )
}

/** The same matrix to choose from: a checkbox per permission, a group per fieldset. */
export function PermissionChoices({
  chosen,
  onToggle,
  disabled = false,
}: {
  chosen: ReadonlySet<Permission>
  onToggle: (permission: Permission) => void
  disabled?: boolean
}) {
  return (
    <div className="d-flex flex-column gap-3">
      {permissionGroups().map(({ group, permissions }) => (
        <fieldset key={group} disabled={disabled}>
          <legend className="fs-6 fw-semibold mb-1">{text.groups[group]}</legend>
          {permissions.map((permission) => (
            <CFormCheck
              key={permission}
              id={`permission-${permission}`}
              name="permissions"
              value={permission}
              label={permissionDescriptions[permission]}
              checked={chosen.has(permission)}
              onChange={() => onToggle(permission)}
            />
          ))}
        </fieldset>
      ))}
    </div>
  )
}
