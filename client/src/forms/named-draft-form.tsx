import { CFormLabel } from '@coreui/react'
import { useId, useState, type RefObject } from 'react'
import { ApiError, errorMessage } from '../session/api-client'
import { FormField } from './form-field'
import type { NamedDraft, NamedField } from './named-draft'
import { namedDraftMessages } from './named-draft-messages'

type Problems = Partial<Record<NamedField, string>>

/**
 * A form over a named thing's draft (a role's, a team's): a field's message goes when it is
 * edited; `submit` checks the draft, focuses the first field with a message, else sends it with
 * `save`. The API's refusal `nameTakenCode` (a name already taken) is said under the name, any
 * other refusal in `error`, above the buttons.
 */
export function useNamedDraftForm<Draft extends NamedDraft>({
  initial,
  fields,
  problemsOf,
  nameTakenCode,
  save,
}: {
  initial: () => Draft
  /** What holds the fields, to focus one by its name. */
  fields: RefObject<HTMLElement | null>
  problemsOf: (draft: Draft) => Problems
  nameTakenCode: string
  save: (draft: Draft) => Promise<void>
}) {
  const [draft, setDraft] = useState(initial)
  const [problems, setProblems] = useState<Problems>({})
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)

  const focus = (field: NamedField) =>
    fields.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()

  const edit = (change: Partial<Draft>, field?: NamedField) => {
    setDraft((current) => ({ ...current, ...change }))
    if (field) setProblems(({ [field]: _gone, ...rest }) => rest)
  }

  const submit = async () => {
    const found = problemsOf(draft)
    setProblems(found)
    setError(null)
    const first = (['name', 'description'] as const).find((field) => found[field])
    if (first) return focus(first)
    setSending(true)
    try {
      await save(draft)
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === nameTakenCode) {
        setProblems({ name: caught.message })
        focus('name')
      } else setError(errorMessage(caught))
    } finally {
      setSending(false)
    }
  }

  return { draft, setDraft, edit, problems, error, sending, submit }
}

/**
 * The name and the optional description. Each takes twice its rule's length, so that one too
 * long is told under it, not cut.
 */
export function NameAndDescriptionFields({
  draft,
  problems,
  edit,
  limits,
}: {
  draft: NamedDraft
  problems: Problems
  edit: (change: Partial<NamedDraft>, field: NamedField) => void
  limits: { name: number; description: number }
}) {
  const id = useId()
  return (
    <>
      <FormField
        name="name"
        label={namedDraftMessages.name}
        type="text"
        autoComplete="off"
        error={problems.name}
        onEdit={(name) => edit({ name }, 'name')}
        inputProps={{ value: draft.name, maxLength: limits.name * 2 }}
      />
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-description`}>{namedDraftMessages.description}</CFormLabel>
        <textarea
          id={`${id}-description`}
          name="description"
          className={`form-control${problems.description ? ' is-invalid' : ''}`}
          rows={2}
          maxLength={limits.description * 2}
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
    </>
  )
}
