import { CButton, CCard, CCardBody, CFormLabel } from '@coreui/react'
import { CheckField } from '../../ui/check-field'
import { useId, useRef, useState, type FormEvent } from 'react'
import {
  ROLE_DESCRIPTION_MAX_LENGTH,
  ROLE_NAME_MAX_LENGTH,
  type RoleItem,
} from '../../../../common/api/roles'
import { ROLE_SCOPES, type Permission } from '../../../../common/permissions'
import { ApiError, errorMessage } from '../../api/api-client'
import { FormField } from '../../forms/form-field'
import { SubmitButton } from '../../forms/submit-button'
import { Notice } from '../../ui/notice'
import { adminMessages } from '../../words/admin-messages'
import { PermissionChoices } from './permission-matrix'
import { draftOf, roleProblems, type RoleDraft, type RoleField } from './role-draft'
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
  const id = useId()
  const form = useRef<HTMLFormElement>(null)
  const [draft, setDraft] = useState(() => draftOf(role))
  const [problems, setProblems] = useState<Partial<Record<RoleField, string>>>({})
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)

  const focus = (field: RoleField) =>
    form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()

  const edit = (change: Partial<RoleDraft>, field?: RoleField) => {
    setDraft((current) => ({ ...current, ...change }))
    if (field) setProblems(({ [field]: _gone, ...rest }) => rest)
  }
  const toggle = (permission: Permission) =>
    setDraft((current) => {
      const permissions = new Set(current.permissions)
      if (permissions.has(permission)) permissions.delete(permission)
      else permissions.add(permission)
      return { ...current, permissions }
    })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = roleProblems(draft)
    setProblems(found)
    setError(null)
    const first = (['name', 'description'] as const).find((field) => found[field])
    if (first) return focus(first)
    setSending(true)
    try {
      await save(draft)
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'role_name_taken') {
        setProblems({ name: caught.message })
        focus('name')
      } else setError(errorMessage(caught))
    } finally {
      setSending(false)
    }
  }

  return (
    <form ref={form} noValidate onSubmit={(event) => void submit(event)} aria-busy={sending}>
      <CCard className="mb-3">
        <CCardBody>
          <FormField
            name="name"
            label={text.name}
            type="text"
            autoComplete="off"
            error={problems.name}
            onEdit={(name) => edit({ name }, 'name')}
            // Longer than the rule, so that a long name is told, not cut.
            inputProps={{ value: draft.name, maxLength: ROLE_NAME_MAX_LENGTH * 2 }}
          />
          <div className="mb-3">
            <CFormLabel htmlFor={`${id}-description`}>{text.description}</CFormLabel>
            <textarea
              id={`${id}-description`}
              name="description"
              className={`form-control${problems.description ? ' is-invalid' : ''}`}
              rows={2}
              maxLength={ROLE_DESCRIPTION_MAX_LENGTH * 2}
              value={draft.description}
              aria-invalid={problems.description !== undefined}
              aria-describedby={problems.description ? `${id}-description-error` : undefined}
              onChange={(event) => edit({ description: event.target.value }, 'description')}
            />
            {problems.description && (
              <div id={`${id}-description-error`} className="invalid-feedback" role="alert">
                {problems.description}
              </div>
            )}
          </div>
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
