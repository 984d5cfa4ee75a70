import { CFormInput, CFormLabel } from '@coreui/react'
import { useId, useState } from 'react'
import type { Role } from '../../../../common/api/account'
import { isValidEmail } from '../../../../common/account-rules'
import { nameProblem } from '../../../../common/name-rules'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { announceStaffChange } from '../../api/staff-changed-event'
import { inviteStaff } from './staff-api'
import { ApiError } from '../../api/api-client'
import { messages } from '../../words/messages'
import { useFormDraft } from '../../session/form-draft'
import { ConfirmDialog } from '../../ui/confirm-dialog'

const text = staffMessages.invite
/** The draft's name (session/form-draft.ts): Equipe reopens the dialog when one is kept. */
export const INVITE_DRAFT = 'invite'

/** Invite someone who has not registered: name, e-mail and role; they get a 7-day link. */
export function InviteDialog({
  onDone,
  onCancel,
}: {
  onDone: (notice: string) => void
  onCancel: () => void
}) {
  const id = useId()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('staff')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { ref: draftRef, clear: clearDraft } = useFormDraft<HTMLDivElement>(INVITE_DRAFT)

  const submit = async () => {
    const problem = nameProblem(name)
    if (problem) return setError(problem)
    if (!isValidEmail(email)) return setError(messages.forms.emailInvalid)
    setBusy(true)
    setError(null)
    try {
      const { user } = await inviteStaff({ name: name.trim(), email: email.trim(), role })
      clearDraft()
      announceStaffChange()
      onDone(text.done(user.email))
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : String(caught))
    } finally {
      setBusy(false)
    }
  }

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
        <div className="mb-3">
          <CFormLabel htmlFor={`${id}-name`}>{text.name}</CFormLabel>
          <CFormInput
            id={`${id}-name`}
            name="name"
            autoComplete="off"
            maxLength={100}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="mb-3">
          <CFormLabel htmlFor={`${id}-email`}>{text.email}</CFormLabel>
          <CFormInput
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="off"
            maxLength={254}
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
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
      </div>
    </ConfirmDialog>
  )
}
