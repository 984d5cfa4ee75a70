import assert from 'node:assert/strict'
import { it } from 'node:test'
import { browserName } from './browser-name'

it('names the usual browsers and systems in a few pt-BR words', () => {
  const cases: [string, string][] = [
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome no Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge no Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox no macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari no iPhone',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet no Android',
    ],
    [
      // Headless Chromium (Playwright's, the e2e suites'): its own token, not "Chrome/".
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36',
      'Chrome no Linux',
    ],
    ['curl/8.5.0', 'Navegador desconhecido'],
  ]
  for (const [agent, name] of cases) assert.equal(browserName(agent), name, agent)
  assert.equal(browserName(undefined), null)
  assert.equal(browserName(''), null)
})
