import { CFormLabel } from '@coreui/react'
import { CheckField } from '../../ui/check-field'
import { useId, useRef, useState } from 'react'
import {
  ROLE_DESCRIPTION_MAX_LENGTH,
  TEAM_NAME_MAX_LENGTH,
  type TeamItem,
} from '../../../../common/api/roles'
import { ApiError, errorMessage } from '../../api/api-client'
import { FormField } from '../../forms/form-field'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { adminMessages } from '../../words/admin-messages'
import { teamDraftOf, teamProblems, type TeamDraft, type TeamField } from './team-draft'
import { teamsMessages } from './teams-messages'

const text = teamsMessages.form

/**
 * A team's name, description and "aberto para cadastro", to create one (`team` absent) or
 * change it. A name already taken is said under the name, any other refusal in the dialog.
 */
export function TeamDialog({
  team,
  save,
  onCancel,
}: {
  team?: TeamItem
  save: (draft: TeamDraft) => Promise<void>
  onCancel: () => void
}) {
  const id = useId()
  const fields = useRef<HTMLDivElement>(null)
  const [draft, setDraft] = useState(() => teamDraftOf(team))
  const [problems, setProblems] = useState<Partial<Record<TeamField, string>>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const focus = (field: TeamField) =>
    fields.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()
  const edit = (change: Partial<TeamDraft>, field?: TeamField) => {
    setDraft((current) => ({ ...current, ...change }))
    if (field) setProblems(({ [field]: _gone, ...rest }) => rest)
  }

  const submit = async () => {
    const found = teamProblems(draft)
    setProblems(found)
    setError(null)
    const first = (['name', 'description'] as const).find((field) => found[field])
    if (first) return focus(first)
    setBusy(true)
    try {
      await save(draft)
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'team_name_taken') {
        setProblems({ name: caught.message })
        focus('name')
      } else setError(errorMessage(caught))
    } finally {
      setBusy(false)
    }
  }

  return (
    <ConfirmDialog
      title={team ? text.editTitle(team.name) : text.createTitle}
      body={text.body}
      confirmLabel={team ? text.save : text.create}
      cancelLabel={adminMessages.cancel}
      busy={busy}
      error={error}
      onConfirm={() => void submit()}
      onCancel={onCancel}
    >
      <div ref={fields}>
        <FormField
          name="name"
          label={text.name}
          type="text"
          autoComplete="off"
          error={problems.name}
          onEdit={(name) => edit({ name }, 'name')}
          inputProps={{ value: draft.name, maxLength: TEAM_NAME_MAX_LENGTH * 2 }}
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
        <CheckField
          name="open"
          label={text.open}
          checked={draft.open}
          describedBy={`${id}-open-hint`}
          onChange={(open) => edit({ open })}
        />
        <div id={`${id}-open-hint`} className="form-text">
          {text.openHint}
        </div>
      </div>
    </ConfirmDialog>
  )
}
