import { CFormLabel } from '@coreui/react'
import { useId, useState } from 'react'
import type { Role } from '../../../../common/api/account'
import { NAME_MAX_LENGTH } from '../../../../common/name-rules'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { announceStaffChange } from '../../api/staff-changed-event'
import { inviteStaff } from './staff-api'
import { ApiError } from '../../session/api-client'
import { useFormDraft } from '../../session/form-draft'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { FormField } from '../../forms/form-field'
import { fieldKindOf } from '../../forms/server-field-error'
import { inviteProblems, type InviteField } from './invite-validation'
import { BUILT_IN_ROLE_IDS } from '../../../../common/permissions'
import type { ViewerAccess } from '../../session/access'
import type { RoleTeamChoices } from './role-team-choices'
import { RoleTeamFields } from './role-team-fields'

const text = staffMessages.invite
/** The draft's name (session/form-draft.ts): Equipe reopens the dialog when one is kept. */
export const INVITE_DRAFT = 'invite'

type InviteErrors = Partial<Record<InviteField, string>>

/** The server's refusals that are about one field: said under it, like the dialog's own checks. */
function fieldOfError(error: ApiError): InviteField | undefined {
  const kind = fieldKindOf(error.code, error.message)
  return kind === 'name' || kind === 'email' ? kind : undefined
}

/**
 * Invite someone who has not registered: name, e-mail, role and team; they get a 7-day link.
 * Someone whose role reaches only their own team invites into it. From an older backend (no
 * roles), the role is the old admin or staff.
 */
export function InviteDialog({
  onDone,
  onCancel,
  choices,
  access,
}: {
  onDone: (notice: string) => void
  onCancel: () => void
  choices: RoleTeamChoices
  access: ViewerAccess
}) {
  const id = useId()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('staff')
  const [roleId, setRoleId] = useState<string>(BUILT_IN_ROLE_IDS.staff)
  const [teamId, setTeamId] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<InviteErrors>({})
  const { ref: draftRef, clear: clearDraft } = useFormDraft<HTMLDivElement>(INVITE_DRAFT)

  /** The field's input gets the focus with its message, as on the other forms. */
  const focusField = (field: InviteField) =>
    draftRef.current?.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.focus()

  const submit = async () => {
    const problems = inviteProblems(name, email)
    setFieldErrors(problems)
    setError(null)
    const first = (['name', 'email'] as const).find((field) => problems[field] !== undefined)
    if (first) return focusField(first)
    setBusy(true)
    try {
      const person = { name: name.trim(), email: email.trim() }
      const { user } = await inviteStaff(
        access.hasRoles
          ? {
              ...person,
              // Left to the server (Equipe) when the viewer is not shown the roles.
              ...(choices.roles ? { roleId } : {}),
              ...(access.scope === 'team'
                ? { teamId: access.teamId }
                : choices.teams
                  ? { teamId: teamId || null }
                  : {}),
            }
          : { ...person, role },
      )
      clearDraft()
      announceStaffChange()
      onDone(text.done(user.email))
    } catch (caught) {
      const field = caught instanceof ApiError ? fieldOfError(caught) : undefined
      if (field) {
        setFieldErrors({ [field]: (caught as ApiError).message })
        focusField(field)
      } else setError(caught instanceof ApiError ? caught.message : String(caught))
    } finally {
      setBusy(false)
    }
  }

  const edited = (field: InviteField) =>
    setFieldErrors((current) => {
      if (current[field] === undefined) return current
      const next = { ...current }
      delete next[field]
      return next
    })

  return (
    <ConfirmDialog
      title={text.title}
      body={text.body}
      confirmLabel={text.submit}
      cancelLabel={adminMessages.cancel}
      busy={busy}
      error={error}
      onConfirm={() => void submit()}
      onCancel={onCancel}
    >
      <div ref={draftRef}>
        <FormField
          name="name"
          label={text.name}
          type="text"
          autoComplete="off"
          error={fieldErrors.name}
          onEdit={(value) => {
            setName(value)
            edited('name')
          }}
          // Longer than the rule, so that a long name is told, not cut.
          inputProps={{ value: name, maxLength: NAME_MAX_LENGTH * 4 }}
        />
        <FormField
          name="email"
          label={text.email}
          type="email"
          autoComplete="off"
          error={fieldErrors.email}
          onEdit={(value) => {
            setEmail(value)
            edited('email')
          }}
          inputProps={{
            value: email,
            maxLength: 254,
            inputMode: 'email',
            autoCapitalize: 'none',
            spellCheck: false,
          }}
        />
        {access.hasRoles ? (
          <RoleTeamFields
            choices={choices}
            access={access}
            roleId={roleId}
            teamId={teamId}
            onRole={setRoleId}
            onTeam={setTeamId}
          />
        ) : (
          <div className="mb-3">
            <CFormLabel htmlFor={`${id}-role`}>{text.role}</CFormLabel>
            <select
              id={`${id}-role`}
              name="role"
              className="form-select"
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
            >
              <option value="staff">{adminMessages.roles.staff}</option>
              <option value="admin">{adminMessages.roles.admin}</option>
            </select>
          </div>
        )}
      </div>
    </ConfirmDialog>
  )
}
