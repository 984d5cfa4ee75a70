import type { Locator, Page } from '@playwright/test'

type Fill = ((this: Locator, ...args: Parameters<Locator['fill']>) => Promise<void>) & {
  seenByReact?: true
}

/**
 * Playwright 1.64's `fill` over WebDriver BiDi (Firefox) writes the text with the field's own
 * `value` setter, then fires `input`. React keeps the last value it saw in a tracker on that
 * very setter, so it sees no change, and a controlled field (the invite dialog, the
 * registration) keeps its old state while the screen shows the new text. A person typing, or a
 * browser's autofill, goes through the native setter and is seen: the gap is the tool's
 * (docs/testing.md). And in a field without a text selection (type=email), the tool appends the
 * text to what was there instead of replacing it. So after the tool's fill, the field's text is
 * set to what fill was given (cut at its maxlength, as typing would be), through the prototype's
 * setter after the field's own took "", so React sees an edit from "" to the text, as from a
 * keyboard. Chromium's fill (CDP Input.insertText) needs none of this.
 *
 * Locators are made afresh by every getBy…/locator/filter call, all of one class: its fill is
 * wrapped once for the worker, which runs one project's tests only (Firefox's).
 */
export function fillSeenByReact(page: Page): void {
  const proto = Object.getPrototypeOf(page.locator('body')) as { fill: Fill }
  if (proto.fill.seenByReact) return
  const toolsFill = proto.fill
  const fill: Fill = async function (this: Locator, value, options) {
    await toolsFill.call(this, value, options)
    if (value === '') return
    await this.evaluate((element, given) => {
      const typed =
        element instanceof HTMLTextAreaElement ||
        (element instanceof HTMLInputElement &&
          ['text', 'email', 'password', 'search', 'tel', 'url'].includes(element.type))
      if (!typed) return
      const text = element.maxLength >= 0 ? given.slice(0, element.maxLength) : given
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called on the element below
      const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')?.set
      if (!setter) return
      element.value = ''
      setter.call(element, text)
      element.dispatchEvent(new Event('input', { bubbles: true }))
    }, value)
  }
  fill.seenByReact = true
  proto.fill = fill
}
