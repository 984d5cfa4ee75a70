import { CheckField } from '../../ui/check-field'
import { useId, useRef } from 'react'
import type { TeamItem } from '../../../../common/api/roles'
import { ROLE_DESCRIPTION_MAX_LENGTH, TEAM_NAME_MAX_LENGTH } from '../../../../common/role-limits'
import { NameAndDescriptionFields, useNamedDraftForm } from '../../forms/named-draft-form'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { adminMessages } from '../../words/admin-messages'
import { teamDraftOf, teamProblems, type TeamDraft } from './team-draft'
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
  const { draft, edit, problems, error, sending, submit } = useNamedDraftForm({
    initial: () => teamDraftOf(team),
    fields,
    problemsOf: teamProblems,
    nameTakenCode: 'team_name_taken',
    save,
  })

  return (
    <ConfirmDialog
      title={team ? text.editTitle(team.name) : text.createTitle}
      body={text.body}
      confirmLabel={team ? text.save : text.create}
      cancelLabel={adminMessages.cancel}
      busy={sending}
      error={error}
      onConfirm={() => void submit()}
      onCancel={onCancel}
    >
      <div ref={fields}>
        <NameAndDescriptionFields
          draft={draft}
          problems={problems}
          edit={edit}
          limits={{ name: TEAM_NAME_MAX_LENGTH, description: ROLE_DESCRIPTION_MAX_LENGTH }}
        />
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
