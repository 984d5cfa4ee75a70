import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router-dom'
import { useCurrentUser } from './current-user'
import { readSessionEnd, SIGNED_OUT } from './session-end'
import { readToken } from './token'

/**
 * What someone typed into a form, kept in this tab's sessionStorage while they type, so that a
 * session ending under them (expired, ended elsewhere) loses nothing: after signing in again the
 * same screen fills the form back in. Never a password, a one-time code or a hidden field.
 * Leaving the form any other way (sending it, cancelling, going to another screen, "Sair")
 * forgets it.
 */
const PREFIX = 'painel:draft:'

interface Draft {
  user: string
  fields: Record<string, string>
}

const keyOf = (pathname: string, form: string) => `${PREFIX}${pathname}#${form}`

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

function keptFields(container: HTMLElement): Field[] {
  return [...container.querySelectorAll<Field>('input[name], textarea[name], select[name]')].filter(
    (field) =>
      !['password', 'hidden', 'file', 'checkbox', 'radio', 'submit', 'button'].includes(
        field.type,
      ) &&
      !/password|one-time-code/.test(field.getAttribute('autocomplete') ?? '') &&
      field.dataset.noDraft === undefined,
  )
}

function read(key: string): Draft | null {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(key) ?? 'null') as Draft | null
    return value !== null && typeof value.user === 'string' && typeof value.fields === 'object'
      ? value
      : null
  } catch {
    return null
  }
}

function forget(key: string): void {
  try {
    window.sessionStorage.removeItem(key)
  } catch {
    // No storage, no draft.
  }
}

/** Sets a field the way typing does, so React's own state (a controlled input) follows. */
function fill(field: Field, value: string): void {
  const prototype = Object.getPrototypeOf(field) as object
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value)
  field.dispatchEvent(new Event('input', { bubbles: true }))
  field.dispatchEvent(new Event('change', { bubbles: true }))
}

/** Whether the screen at `pathname` has a kept draft of `form` (to reopen its dialog, say). */
export function hasDraft(pathname: string, form: string): boolean {
  return read(keyOf(pathname, form)) !== null
}

/**
 * Keeps the form inside the returned ref's element. `form` names it within its screen; the
 * screen's path and the signed-in person complete the key (someone else signing in on this tab
 * never sees it). Call `clear()` once the form is sent.
 */
export function useFormDraft<T extends HTMLElement>(form: string) {
  const container = useRef<T>(null)
  const { pathname } = useLocation()
  const { user } = useCurrentUser()
  const userId = user?.id ?? null
  const key = keyOf(pathname, form)

  useEffect(() => {
    const element = container.current
    if (element === null || userId === null) return
    const kept = read(key)
    if (kept !== null && kept.user === userId) {
      for (const field of keptFields(element)) {
        const value = kept.fields[field.name]
        if (typeof value === 'string' && value !== field.value) fill(field, value)
      }
    }
    const save = () => {
      const fields = Object.fromEntries(
        keptFields(element)
          .filter((field) => field.value !== '')
          .map((field) => [field.name, field.value]),
      )
      try {
        if (Object.keys(fields).length === 0) window.sessionStorage.removeItem(key)
        else window.sessionStorage.setItem(key, JSON.stringify({ user: userId, fields }))
      } catch {
        // Full or blocked storage: the form works, it just is not kept.
      }
    }
    element.addEventListener('input', save)
    return () => {
      element.removeEventListener('input', save)
      // Still signed in (or signed out on purpose): the person left the form; forget it.
      if (readToken() !== null || readSessionEnd()?.code === SIGNED_OUT) forget(key)
    }
  }, [key, userId])

  return { ref: container, clear: () => forget(key) }
}
