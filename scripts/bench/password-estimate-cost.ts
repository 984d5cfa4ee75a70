/**
 * What a password strength estimate costs the server (server/features/password-strength/): the
 * CPU time of zxcvbn-ts on the slowest kinds of input at the length the estimator looks at and at
 * the policy's longest password, and the memory its dictionaries take once loaded. The figures
 * the estimator's limits are set by (strength-estimator.ts, docs/security.md).
 *
 *   npx tsx scripts/bench/password-estimate-cost.ts
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import * as portuguese from '@zxcvbn-ts/language-pt-br'
import { PASSWORD_MAX_LENGTH } from '../../common/password-policy'
import { ESTIMATED_LENGTH } from '../../server/features/password-strength/strength-estimator'
import { formatTable } from '../build/report'

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const collect = () => (globalThis as { gc?: () => void }).gc?.()

collect()
const before = process.memoryUsage().rss
const factory = (maxLength: number) =>
  new ZxcvbnFactory({
    maxLength,
    translations: portuguese.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...portuguese.dictionary },
  })
const estimator = factory(ESTIMATED_LENGTH)
estimator.check('aquecimento', [])
collect()
const loaded = process.memoryUsage().rss - before

/** Inputs zxcvbn is slowest on: repeats, keyboard walks, l33t symbols, varied symbols. */
const SLOW_KINDS: Record<string, (length: number) => string> = {
  'one letter repeated': (n) => 'a'.repeat(n),
  'a keyboard walk repeated': (n) => '1qaz2wsx'.repeat(Math.ceil(n / 8)).slice(0, n),
  'l33t symbols repeated': (n) => '4@3!1|0$'.repeat(Math.ceil(n / 8)).slice(0, n),
  'varied symbols': (n) =>
    Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join(''),
}

function slowest(zxcvbn: ZxcvbnFactory, length: number): number {
  let worst = 0
  for (const make of Object.values(SLOW_KINDS)) {
    const started = performance.now()
    zxcvbn.check(make(length), ['Maria da Silva', 'maria@example.com'])
    worst = Math.max(worst, performance.now() - started)
  }
  return worst
}

const unbounded = factory(PASSWORD_MAX_LENGTH)
unbounded.check('aquecimento', [])
console.log(
  formatTable(
    ['password strength estimate (zxcvbn-ts, pt-BR)', 'figure'],
    [
      [
        `slowest of ${Object.keys(SLOW_KINDS).length} kinds, first ${ESTIMATED_LENGTH} characters looked at`,
        `${slowest(estimator, PASSWORD_MAX_LENGTH).toFixed(0)} ms`,
      ],
      [
        `the same with all ${PASSWORD_MAX_LENGTH} characters looked at`,
        `${slowest(unbounded, PASSWORD_MAX_LENGTH).toFixed(0)} ms`,
      ],
      [
        'memory once the dictionaries are loaded (RSS, after a GC when --expose-gc)',
        megabytes(loaded),
      ],
    ],
  ),
)
