/**
 * A User-Agent in a few words a person recognises in their session list: "Chrome no Linux",
 * "Safari no iPhone". In common/ because the server's answers (sessions, Início, the audit
 * events) and the audit CSV must name a browser alike (common/audit-event-words.ts). Not a full parser: the families staff actually use, in the order that
 * tells them apart (Edge and Opera say "Chrome" too, Chrome says "Safari"); anything else is
 * "Navegador desconhecido", with the system when it is known.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  // HeadlessChrome: Chromium driven by a test or a script (Playwright, Puppeteer) is still Chrome.
  [/\b(?:Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

/**
 * Named once per User-Agent: an export of the audit log names a million events' browsers, from
 * the few hundred User-Agents of an organisation. Bounded, for a log of many.
 */
const named = new Map<string, string>()
const NAMED_KEPT = 1000

export function browserName(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null
  let name = named.get(userAgent)
  if (name === undefined) {
    name = nameOf(userAgent)
    if (named.size >= NAMED_KEPT) named.clear()
    named.set(userAgent, name)
  }
  return name
}

function nameOf(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (browser && system) return `${browser} no ${system}`
  if (browser) return browser
  if (system) return `Navegador desconhecido no ${system}`
  return 'Navegador desconhecido'
}
