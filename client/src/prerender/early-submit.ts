import { PRERENDERED_ATTRIBUTE } from './prerender-markup'

/**
 * "Entrar" pressed (or Enter in a field) on the prerendered form before the app has taken it
 * over. Without a script the browser would send the form itself: a GET to this page with the
 * password in the URL. Instead the submit is held, the button looks busy (app.css), and the app
 * sends it through its own handler once it has hydrated the form: the person does not wait for a
 * disabled button, and what they typed goes out as soon as it can.
 */

/** On `<html>` while a submit is held. */
export const HELD_SUBMIT_ATTRIBUTE = 'data-painel-submit-held'

/**
 * Boot script: listen at the document, in the bubble phase, so the app's own handler (React's,
 * on #root, below the document) has had its turn: a submit it handled is already
 * default-prevented, and only one nobody handled is held.
 */
export function holdEarlySubmits(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return
    if (!form.closest(`[${PRERENDERED_ATTRIBUTE}]`)) return
    event.preventDefault()
    document.documentElement.setAttribute(HELD_SUBMIT_ATTRIBUTE, '')
  })
}

/** App, once it has hydrated the form: send the held submit, through the app's handler. */
export function sendHeldSubmit(container: Element): void {
  const root = document.documentElement
  if (!root.hasAttribute(HELD_SUBMIT_ATTRIBUTE)) return
  root.removeAttribute(HELD_SUBMIT_ATTRIBUTE)
  container.querySelector('form')?.requestSubmit()
}
