import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { nextPaint } from './support/animations'

/**
 * "e-mail" is never split at its hyphen ("e- / mail") in running text: the Avisos de segurança
 * card of Minha conta and #/confirmar-email, at every phone width from 320 to 430 px. The text
 * keeps its ordinary hyphen (getByText reads it as written).
 */

/** Every "e-mail" on the page whose "e-" and "mail" stand on different lines. */
const splitEmails = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const top = (node: Node, index: number) => {
      const range = document.createRange()
      range.setStart(node, index)
      range.setEnd(node, index + 1)
      return range.getClientRects()[0]?.top
    }
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (const match of text.matchAll(/e-mail/gi)) {
        const before = top(node, match.index + 1)
        const after = top(node, match.index + 2)
        if (before !== undefined && after !== undefined && Math.abs(after - before) > 2)
          found.push(text.slice(Math.max(0, match.index - 30), match.index + 10))
      }
    }
    return found
  })

async function expectNoSplitAtAnyPhoneWidth(page: Page) {
  const split: string[] = []
  for (let width = 320; width <= 430; width += 5) {
    await page.setViewportSize({ width, height: 844 })
    // A re-render the resize set off (the layout's phone mode) is painted before it is measured.
    await nextPaint(page)
    split.push(...(await splitEmails(page)).map((text) => `${width} px: …${text}…`))
  }
  expect(split).toEqual([])
}

test.describe('signed in', () => {
  // On a phone from the start: opened at a desktop's width, the first phone width was measured,
  // now and then, while the sidebar still took its desktop place, and "E-mail" split in the
  // narrow rest (CI, in Chromium and in Firefox, at 320 and 325 px only).
  test.use({ signedInAs: 'staff', viewport: { width: 320, height: 844 } })

  test('Minha conta: "e-mail" whole on its line in the Avisos de segurança card', async ({
    page,
  }) => {
    await page.goto('/#/perfil')
    // CoreUI's sidebar learns it is on a phone after its first render, and then closes.
    await expect(
      page.getByRole('button', { name: 'Mostrar ou ocultar o menu lateral' }),
    ).toHaveAttribute('aria-expanded', 'false')
    await expect(page.getByRole('heading', { name: 'Avisos de segurança' })).toBeVisible()
    await expect(page.getByText(/O Painel avisa por e-mail quando algo muda/)).toBeVisible()
    await expectNoSplitAtAnyPhoneWidth(page)
  })
})

test('#/confirmar-email: "e-mail" whole on its line, in the title and the text', async ({
  page,
}) => {
  await page.goto('/#/confirmar-email?token=abc')
  await expect(page.getByRole('heading', { name: 'Confirmar novo e-mail' })).toBeVisible()
  await expect(page.getByText(/passa a ser o e-mail da sua conta/)).toBeVisible()
  await expectNoSplitAtAnyPhoneWidth(page)
  await page.goto('/#/confirmar-email?cancelar=abc')
  await expect(page.getByRole('heading', { name: 'Cancelar troca de e-mail' })).toBeVisible()
  await expectNoSplitAtAnyPhoneWidth(page)
})

/**
 * An e-mail address in running text breaks only where a reader expects: after its "@" or before
 * a dot, never inside a name or a label (the notice after "Enviar link", on a phone's widths).
 */
const EMAIL = 'maria.eduarda.figueiredo.albuquerque@secretaria-de-administracao.exemplo.gov.br'

/** Each place the address runs onto a new line, as the two characters either side of it. */
const emailBreaks = (page: Page, email: string) =>
  page.evaluate((address) => {
    const chars: { char: string; top: number }[] = []
    const notice = document.querySelector('[role="status"]')
    if (!notice) return ['no notice']
    const walker = document.createTreeWalker(notice, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (let index = 0; index < text.length; index += 1) {
        const range = document.createRange()
        range.setStart(node, index)
        range.setEnd(node, index + 1)
        chars.push({ char: text[index]!, top: range.getClientRects()[0]?.top ?? -1 })
      }
    }
    const start = chars
      .map((entry) => entry.char)
      .join('')
      .indexOf(address)
    if (start < 0) return ['the address is not in the notice']
    const wrong: string[] = []
    for (let index = start; index < start + address.length - 1; index += 1) {
      const here = chars[index]!
      const next = chars[index + 1]!
      if (Math.abs(next.top - here.top) > 2 && here.char !== '@' && next.char !== '.')
        wrong.push(`${here.char}|${next.char}`)
    }
    return wrong
  }, email)

test('an e-mail address in a notice breaks after its "@" or before a dot, never mid-word', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/#/recuperar-senha')
  await page.getByLabel('E-mail').fill(EMAIL)
  await page.getByRole('button', { name: /Enviar/ }).click()
  await expect(page.getByRole('status')).toContainText(EMAIL)
  const wrong: string[] = []
  for (let width = 320; width <= 430; width += 10) {
    await page.setViewportSize({ width, height: 844 })
    wrong.push(...(await emailBreaks(page, EMAIL)).map((pair) => `${width} px: ${pair}`))
  }
  expect(wrong).toEqual([])
})

test('the address is read out as written: its parts add no spaces to what a screen reader is given', async ({
  page,
}) => {
  await page.goto('/#/recuperar-senha')
  await page.getByLabel('E-mail').fill(EMAIL)
  await page.getByRole('button', { name: /Enviar/ }).click()
  const notice = page.getByRole('status')
  await expect(notice).toContainText(EMAIL)
  // The accessibility tree's text of the notice, as Playwright computes it from the roles.
  expect(await notice.ariaSnapshot()).toContain(EMAIL)
})
