import type { Page } from '@playwright/test'

/**
 * Resolves when the page's finite animations and transitions have ended (CoreUI's 0.15 s colour
 * fades, the sidebar's slide, a backdrop fading in), so what is measured next is where they land,
 * not a step on the way. getAnimations() updates style first, so a transition the last change
 * started is among them; endless ones (spinners) are left out, since they never end.
 */
export async function finiteAnimationsFinished(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)))
  })
}

/** Two animation frames: whatever changed in the page has been painted when this resolves. */
export async function nextPaint(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  )
}
