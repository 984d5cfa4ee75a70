import type { Locator } from '@playwright/test'

/** WCAG 2 contrast, from the colours the browser computed. */
export type Rgba = [number, number, number, number]

export function parseColor(css: string): Rgba {
  const numbers = /rgba?\(([^)]+)\)/
    .exec(css)?.[1]
    ?.split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number)
  if (!numbers || numbers.length < 3) throw new Error(`not an rgb() colour: ${css}`)
  const [r = 0, g = 0, b = 0, a = 1] = numbers
  return [r, g, b, a]
}

/** A translucent colour as it shows over an opaque one. */
export function over([r, g, b, a]: Rgba, [br, bg, bb]: Rgba): Rgba {
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a), 1]
}

export function luminance([r, g, b]: Rgba): number {
  const channel = (value: number) => {
    const c = value / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

export function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** The element's own colour and the first opaque background behind it, as computed. */
export async function colours(locator: Locator): Promise<{ color: Rgba; background: Rgba }> {
  const { color, backgrounds } = await locator.evaluate((element) => {
    const list: string[] = []
    for (let node: Element | null = element; node; node = node.parentElement) {
      list.push(getComputedStyle(node).backgroundColor)
    }
    return { color: getComputedStyle(element).color, backgrounds: list }
  })
  // Layers from the page up to the element, each over the one below it.
  let background: Rgba = [255, 255, 255, 1]
  for (const layer of backgrounds.reverse().map(parseColor)) background = over(layer, background)
  return { color: over(parseColor(color), background), background }
}
