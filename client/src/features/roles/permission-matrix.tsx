import { useId } from 'react'
import { CheckField } from '../../ui/check-field'
import { permissionDescriptions, type Permission } from '../../../../common/permissions'
import { permissionGroups } from './permission-groups'
import { rolesMessages } from './roles-messages'

const text = rolesMessages.role

/**
 * A role's permissions, grouped (Equipe, Auditoria, Administração), each by its pt-BR
 * description: a table of what is and is not allowed, to read.
 */
export function PermissionMatrix({ granted }: { granted: readonly Permission[] }) {
  const id = useId()
  return (
    <div className="d-flex flex-column gap-3">
      {permissionGroups().map(({ group, permissions }) => (
        <section key={group}>
          <h3 id={`${id}-${group}`} className="h6 mb-1">
            {text.groups[group]}
          </h3>
          <table aria-labelledby={`${id}-${group}`} className="table align-middle mb-0">
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
        </section>
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
            <CheckField
              key={permission}
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
