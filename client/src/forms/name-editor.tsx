import { CButton, CFormInput, CFormLabel } from '@coreui/react'
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { NAME_MAX_LENGTH, nameProblem, normalizeName } from '../../../common/name-rules'
import { errorMessage } from '../session/api-client'
import { nameMessages } from './name-messages'

const text = nameMessages

/**
 * A name shown with "Editar" beside it: a field with Salvar and Cancelar in its place, checked by
 * the rules of registration (common/name-rules.ts) before it is sent; the server's refusal shows
 * in the same place. Escape cancels. Focus goes to the field when it opens and back to "Editar"
 * when it closes, so a keyboard user stays where they were.
 */
export function NameEditor({
  name,
  save,
  label,
}: {
  name: string
  /** Sends the name (already normalised); rejects with the server's error. */
  save: (name: string) => Promise<void>
  /** What "Editar" says to a screen reader: whose name it edits. */
  label: string
}) {
  const [editing, setEditing] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [draft, setDraft] = useState(name)
  const editButton = useRef<HTMLButtonElement>(null)
  const returnFocus = useRef(false)
  const id = useId()

  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false
      editButton.current?.focus()
    }
  }, [editing])

  const close = () => {
    returnFocus.current = true
    setProblem(null)
    setEditing(false)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const refused = nameProblem(draft)
    if (refused) return setProblem(refused)
    const next = normalizeName(draft)
    if (next === name) return close()
    setSaving(true)
    try {
      await save(next)
      setSaved(true)
      close()
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !saving) {
      event.preventDefault()
      close()
    }
  }

  if (!editing) {
    return (
      <span className="d-flex flex-wrap align-items-center gap-2">
        <span style={{ overflowWrap: 'anywhere' }}>{name}</span>
        <CButton
          ref={editButton}
          color="secondary"
          variant="outline"
          size="sm"
          aria-label={label}
          onClick={() => {
            setSaved(false)
            setDraft(name)
            setEditing(true)
          }}
        >
          {text.edit}
        </CButton>
        {saved && (
          <span className="visually-hidden" role="status">
            {text.saved}
          </span>
        )}
      </span>
    )
  }
  return (
    <form noValidate onSubmit={(event) => void submit(event)} onKeyDown={onKeyDown}>
      <CFormLabel htmlFor={id} className="visually-hidden">
        {text.field}
      </CFormLabel>
      <CFormInput
        id={id}
        name="name"
        value={draft}
        maxLength={NAME_MAX_LENGTH * 4}
        autoComplete="name"
        autoFocus
        invalid={problem !== null}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => {
          setDraft(event.target.value)
          setProblem(null)
        }}
      />
      {problem && (
        <div id={`${id}-problem`} className="invalid-feedback d-block">
          {problem}
        </div>
      )}
      <div className="d-flex gap-2 mt-2">
        <CButton type="submit" color="primary" size="sm" disabled={saving}>
          {text.save}
        </CButton>
        <CButton color="secondary" variant="outline" size="sm" disabled={saving} onClick={close}>
          {text.cancel}
        </CButton>
      </div>
    </form>
  )
}
