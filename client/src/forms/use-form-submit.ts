import { useCallback, useState, type FormEvent } from 'react'
import { ApiError } from '../session/api-client'
import type { FieldErrors } from './auth-validation'
import type { FieldBinding } from './form-field'
import { fieldKindOf, type FieldKind } from './server-field-error'

interface FormSubmitOptions<Field extends string> {
  /** The form's fields, in the order they appear (the first invalid one gets the focus). */
  fields: readonly Field[]
  validate: (values: Record<Field, string>) => FieldErrors<Field>
  /** Sends the form; a thrown ApiError's message is shown to the user as-is. */
  submit: (values: Record<Field, string>) => Promise<void>
  /**
   * Server error codes that are about one field (`wrong_password` → the current password): their
   * message is shown on that field, which gets the focus, rather than above the form.
   */
  fieldOfError?: Partial<Record<string, Field>>
  /**
   * The form's fields for the account's name, e-mail and new password: the server's refusal of
   * one (a common password, say) is shown on that field, and goes when the field changes.
   */
  fieldOfKind?: Partial<Record<FieldKind, Field>>
}

/**
 * The behaviour every public form shares: validate on submit, focus the first invalid field,
 * refuse a second submit while one is being sent, and show what the server answered.
 */
export function useFormSubmit<Field extends string>({
  fields,
  validate,
  submit,
  fieldOfError,
  fieldOfKind,
}: FormSubmitOptions<Field>) {
  const [errors, setErrors] = useState<FieldErrors<Field>>({})
  const [serverError, setServerError] = useState<{ message: string; code: string } | null>(null)
  const [sending, setSending] = useState(false)

  const send = useCallback(
    async (form: HTMLFormElement) => {
      const data = new FormData(form)
      const values = Object.fromEntries(
        fields.map((field) => {
          const value = data.get(field)
          return [field, typeof value === 'string' ? value : '']
        }),
      ) as Record<Field, string>

      const found = validate(values)
      setErrors(found)
      setServerError(null)
      const firstInvalid = fields.find((field) => found[field] !== undefined)
      if (firstInvalid !== undefined) {
        const element = form.elements.namedItem(firstInvalid)
        if (element instanceof HTMLElement) element.focus()
        return
      }

      setSending(true)
      try {
        await submit(values)
      } catch (error) {
        const kind = error instanceof ApiError ? fieldKindOf(error.code, error.message) : undefined
        const field =
          error instanceof ApiError
            ? (fieldOfError?.[error.code] ?? (kind === undefined ? undefined : fieldOfKind?.[kind]))
            : undefined
        if (error instanceof ApiError && field !== undefined) {
          setErrors({ [field]: error.message } as FieldErrors<Field>)
          const element = form.elements.namedItem(field)
          if (element instanceof HTMLElement) element.focus()
        } else if (error instanceof ApiError) {
          setServerError({ message: error.message, code: error.code })
        } else {
          setServerError({ message: String(error), code: 'unexpected' })
        }
      } finally {
        setSending(false)
      }
    },
    [fields, validate, submit, fieldOfError, fieldOfKind],
  )

  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault()
      if (!sending) void send(event.currentTarget)
    },
    [send, sending],
  )

  /** Typing in a field clears its message: it answered the last submit, not this text. */
  const clearError = useCallback((field: Field) => {
    setErrors((current) => {
      if (current[field] === undefined) return current
      const next = { ...current }
      delete next[field]
      return next
    })
  }, [])

  /** A field's binding, for `<FormField {...form.field('email')} … />`. */
  const field = useCallback(
    (name: Field): FieldBinding => ({
      name,
      error: errors[name],
      onEdit: () => clearError(name),
    }),
    [errors, clearError],
  )

  return {
    /** What the server said about the whole form (not about one field), to show above it. */
    serverError: serverError?.message ?? null,
    /** Its code (`pending_approval`, …): some answers are information, not errors. */
    serverErrorCode: serverError?.code ?? null,
    sending,
    onSubmit,
    field,
  }
}
