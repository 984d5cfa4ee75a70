/**
 * The small marks beside the sign-in providers' words on the login page (docs/single-sign-on.md):
 * simple shapes in each brand's colours, drawn here rather than copied from a brand kit. One
 * description serves both renderings, so they match for hydration: the server writes it into the
 * page it serves as SVG markup (server/static/sign-in-providers-page.ts), and the hydrated page
 * renders it as React elements (client/src/features/sign-in/provider-buttons.tsx). Inline in the
 * page: no request, and only presentation attributes (the CSP allows no style attributes).
 */
export const PROVIDER_MARKS = ['google', 'microsoft', 'govbr', 'key'] as const
export type ProviderMark = (typeof PROVIDER_MARKS)[number]

export const isProviderMark = (value: unknown): value is ProviderMark =>
  (PROVIDER_MARKS as readonly unknown[]).includes(value)

export interface MarkShape {
  element: 'path' | 'rect' | 'circle'
  /** SVG attribute names as written in markup (`stroke-width`). */
  attributes: Readonly<Record<string, string>>
}

/** The `<svg>` element's own attributes: 20 px, hidden from assistive technology (the words say it). */
export const MARK_SVG_ATTRIBUTES: Readonly<Record<string, string>> = {
  width: '20',
  height: '20',
  viewBox: '0 0 24 24',
  'aria-hidden': 'true',
  focusable: 'false',
}

/** A ring's arc from one point to another, clockwise (r = 8 around the centre 12,12). */
const arc = (d: string, stroke: string): MarkShape => ({
  element: 'path',
  attributes: { d, fill: 'none', stroke, 'stroke-width': '4' },
})
const square = (x: string, y: string, fill: string): MarkShape => ({
  element: 'rect',
  attributes: { x, y, width: '9.5', height: '9.5', fill },
})
const dot = (cx: string, cy: string, r: string, fill: string): MarkShape => ({
  element: 'circle',
  attributes: { cx, cy, r, fill },
})

export const MARK_SHAPES: Readonly<Record<ProviderMark, readonly MarkShape[]>> = {
  // A "G": a ring in Google's four colours, open at the upper right, with its blue bar.
  google: [
    arc('M20 12A8 8 0 0 1 17.66 17.66', '#4285F4'),
    arc('M17.66 17.66A8 8 0 0 1 6.34 17.66', '#34A853'),
    arc('M6.34 17.66A8 8 0 0 1 5.07 8', '#FBBC05'),
    arc('M5.07 8A8 8 0 0 1 17.66 6.34', '#EA4335'),
    { element: 'path', attributes: { d: 'M12 10h10v4H12z', fill: '#4285F4' } },
  ],
  // Four squares in Microsoft's colours (Entra ID signs in with the Microsoft account).
  microsoft: [
    square('2', '2', '#F25022'),
    square('12.5', '2', '#7FBA00'),
    square('2', '12.5', '#00A4EF'),
    square('12.5', '12.5', '#FFB900'),
  ],
  // gov.br's blue, yellow and green, as three dots.
  govbr: [
    dot('6', '15', '4', '#1351B4'),
    dot('13', '8', '4', '#FFCD07'),
    dot('19', '16', '3.5', '#168821'),
  ],
  // Any other provider: a key, in the button's own colour.
  key: [
    {
      element: 'path',
      attributes: {
        d: 'M8 7a5 5 0 1 0 0 10a5 5 0 1 0 0-10zm0 3a2 2 0 1 1 0 4a2 2 0 1 1 0-4zM12.5 11H22v2h-2v3h-2v-3h-5.5z',
        fill: 'currentColor',
        'fill-rule': 'evenodd',
      },
    },
  ],
}
