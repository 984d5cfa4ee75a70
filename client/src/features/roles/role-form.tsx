import { CButton, CCard, CCardBody } from '@coreui/react'
import { CheckField } from '../../ui/check-field'
import { useRef } from 'react'
import type { RoleItem } from '../../../../common/api/roles'
import { ROLE_DESCRIPTION_MAX_LENGTH, ROLE_NAME_MAX_LENGTH } from '../../../../common/role-limits'
import { ROLE_SCOPES, type Permission } from '../../../../common/permissions'
import { NameAndDescriptionFields, useNamedDraftForm } from '../../forms/named-draft-form'
import { SubmitButton } from '../../forms/submit-button'
import { Notice } from '../../ui/notice'
import { adminMessages } from '../../words/admin-messages'
import { PermissionChoices } from './permission-matrix'
import { draftOf, roleProblems, type RoleDraft } from './role-draft'
import { rolesMessages } from './roles-messages'

const text = rolesMessages.form

/**
 * A role's name, description, scope and permissions, to create one (`role` absent) or change
 * it. `save` sends the draft; a refusal about the name (a name already taken) is said under
 * the name, any other above the button.
 */
export function RoleForm({
  role,
  save,
  onCancel,
}: {
  role?: RoleItem
  save: (draft: RoleDraft) => Promise<void>
  onCancel: () => void
}) {
  const form = useRef<HTMLFormElement>(null)
  const { draft, setDraft, edit, problems, error, sending, submit } = useNamedDraftForm({
    initial: () => draftOf(role),
    fields: form,
    problemsOf: roleProblems,
    nameTakenCode: 'role_name_taken',
    save,
  })
  const toggle = (permission: Permission) =>
    setDraft((current) => {
      const permissions = new Set(current.permissions)
      if (permissions.has(permission)) permissions.delete(permission)
      else permissions.add(permission)
      return { ...current, permissions }
    })

  return (
    <form
      ref={form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
      aria-busy={sending}
    >
      <CCard className="mb-3">
        <CCardBody>
          <NameAndDescriptionFields
            draft={draft}
            problems={problems}
            edit={edit}
            limits={{ name: ROLE_NAME_MAX_LENGTH, description: ROLE_DESCRIPTION_MAX_LENGTH }}
          />
          <fieldset className="mb-0">
            <legend className="fs-6 mb-1">{text.scope}</legend>
            {ROLE_SCOPES.map((scope) => (
              <CheckField
                key={scope}
                type="radio"
                name="scope"
                value={scope}
                label={
                  <>
                    <strong>{adminMessages.scopes[scope]}</strong>
                    <span className="d-block small text-body-secondary">
                      {rolesMessages.role.scopeHints[scope]}
                    </span>
                  </>
                }
                checked={draft.scope === scope}
                onChange={() => edit({ scope })}
              />
            ))}
          </fieldset>
        </CCardBody>
      </CCard>
      <CCard className="mb-3">
        <CCardBody>
          <h2 className="h5">{rolesMessages.role.matrix}</h2>
          <PermissionChoices chosen={draft.permissions} onToggle={toggle} />
        </CCardBody>
      </CCard>
      <Notice text={error} />
      <div className="d-flex flex-wrap gap-2 mb-3">
        <SubmitButton label={role ? text.save : text.create} sending={sending} />
        <CButton type="button" color="secondary" variant="outline" onClick={onCancel}>
          {text.cancel}
        </CButton>
      </div>
    </form>
  )
}
