import { expect, test } from './fixtures'
import { colours, contrast } from './support/contrast'
import { e2e } from './support/test-env'

/**
 * The sign-in page's secondary buttons ("Entrar com <provedor>", "Entrar com chave de acesso")
 * meet WCAG AA (4.5:1) against the card behind them, light and dark, cold (the prerendered
 * page's inline CSS) and once the whole stylesheet is there (after a trip to another page).
 */
for (const scheme of ['light', 'dark'] as const) {
  test(`${scheme}: "Entrar com …" buttons at 4.5:1 or more`, async ({ page }) => {
    const buttons = [
      page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` }),
      page.getByRole('button', { name: 'Entrar com chave de acesso' }),
    ]
    const measure = async (when: string) => {
      const found: string[] = []
      for (const button of buttons) {
        await expect(button).toBeVisible()
        const { color, background } = await colours(button)
        const ratio = contrast(color, background)
        test.info().annotations.push({
          type: 'contrast',
          description: `${when}, ${await button.innerText()}: ${ratio.toFixed(2)}:1`,
        })
        if (ratio < 4.5) found.push(`${when}, ${await button.innerText()}: ${ratio.toFixed(2)}:1`)
      }
      return found
    }
    // The mode chosen in the URL (stored, as the header's switcher does), then applied cold.
    await page.goto(`/?theme=${scheme}#/login`)
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-coreui-theme', scheme)
    const cold = await measure('cold')
    // The whole stylesheet, as after any other page.
    await page.getByRole('link', { name: 'Solicitar cadastro' }).click()
    await page.goBack()
    const warm = await measure('with the whole stylesheet')
    expect([...cold, ...warm]).toEqual([])
  })
}
