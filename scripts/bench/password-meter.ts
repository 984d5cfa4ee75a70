/**
 * What the password meter costs a person on a slow phone: a cold #/register on the throttled
 * profile (throttled-sign-in.ts), a password typed key by key, and then the bytes the page has
 * cost until the meter answered for the whole password (and the part of them that typing
 * brought), and the time from the last key to that answer.
 */
import type { Browser } from '@playwright/test'
import { recordNetwork } from './network-recorder'
import { round, spread, type Spread } from './stats'
import { throttle, THROTTLING_LABEL } from './throttled-sign-in'

/** A passphrase the meter rates "boa" or "forte" only once it has seen all of it. */
const PASSWORD = 'vaca amarela pula no brejo'
const KEY_DELAY_MS = 80
const ANSWER_TIMEOUT_MS = 60_000

/**
 * Run in the page (as text: this folder is compiled without the DOM's types; the DevTools
 * protocol runs it, past the page's CSP): marks the last
 * input event, and the first moment after it that the hint rates the whole password.
 */
const WATCH_THE_HINT = `(() => {
  document.addEventListener('input', () => {
    window.lastKeyAt = performance.now()
    window.answeredAt = 0
  })
  new MutationObserver(() => {
    if (window.answeredAt) return
    const hint = [...document.querySelectorAll('.form-text')].find((node) =>
      /^Força da senha: (boa|forte)\\./.test(node.textContent ?? ''),
    )
    if (hint) window.answeredAt = performance.now()
  }).observe(document.body, { subtree: true, childList: true, characterData: true })
})()`

export interface MeterSample {
  /** Everything #/register fetched until the meter answered for the whole password. */
  totalBytes: number
  /** What typing brought: the meter's script and its calls. */
  meterBytes: number
  /** The last key until the hint shows the estimate of the whole password. */
  answerMs: number
}

export interface MeterResult {
  profile: string
  runs: number
  totalBytes: Spread
  meterBytes: Spread
  answerMs: Spread
  samples: MeterSample[]
}

async function typeAndWait(browser: Browser, url: string): Promise<MeterSample> {
  const context = await browser.newContext({ locale: 'pt-BR' })
  try {
    const page = await context.newPage()
    const network = await recordNetwork(page, { cacheDisabled: true })
    await throttle(page)
    await page.goto(url, { waitUntil: 'commit' })
    await page
      .getByRole('button', { name: 'Solicitar cadastro' })
      .waitFor({ state: 'visible', timeout: ANSWER_TIMEOUT_MS })
    const field = page.getByLabel('Senha', { exact: true })
    await field.click()
    const bytes = () => network.records().reduce((sum, record) => sum + record.wireBytes, 0)
    const beforeTyping = bytes()
    await page.evaluate(WATCH_THE_HINT)
    await field.pressSequentially(PASSWORD, { delay: KEY_DELAY_MS })
    // Functions, not text: the page's CSP refuses what the browser would have to eval.
    type Marks = { lastKeyAt: number; answeredAt: number }
    await page.waitForFunction(() => (globalThis as unknown as Marks).answeredAt > 0, undefined, {
      timeout: ANSWER_TIMEOUT_MS,
    })
    const { lastKeyAt, answeredAt } = await page.evaluate(() => {
      const marks = globalThis as unknown as Marks
      return { lastKeyAt: marks.lastKeyAt, answeredAt: marks.answeredAt }
    })
    // The last answer's bytes are counted once its loading has finished.
    await page.waitForTimeout(200)
    const total = bytes()
    await network.detach()
    return {
      totalBytes: total,
      meterBytes: total - beforeTyping,
      answerMs: round(answeredAt - lastKeyAt, 1),
    }
  } finally {
    await context.close()
  }
}

export async function measurePasswordMeter(
  browser: Browser,
  baseURL: string,
  runs: number,
  log: (line: string) => void,
): Promise<MeterResult> {
  const url = `${baseURL}/#/register`
  await typeAndWait(browser, url)
  const samples: MeterSample[] = []
  for (let run = 1; run <= runs; run++) {
    const sample = await typeAndWait(browser, url)
    samples.push(sample)
    log(
      `  throttled #/register ${run}/${runs}: ${sample.totalBytes} B until the meter answered (${sample.meterBytes} B after the first key), answer ${sample.answerMs} ms after the last key`,
    )
  }
  return {
    profile: THROTTLING_LABEL,
    runs,
    totalBytes: spread(samples.map((sample) => sample.totalBytes)),
    meterBytes: spread(samples.map((sample) => sample.meterBytes)),
    answerMs: spread(samples.map((sample) => sample.answerMs)),
    samples,
  }
}
