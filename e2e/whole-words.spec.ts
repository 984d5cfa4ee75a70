import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

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
    split.push(...(await splitEmails(page)).map((text) => `${width} px: …${text}…`))
  }
  expect(split).toEqual([])
}

test.describe('signed in', () => {
  test.use({ signedInAs: 'staff' })

  test('Minha conta: "e-mail" whole on its line in the Avisos de segurança card', async ({
    page,
  }) => {
    await page.goto('/#/perfil')
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
