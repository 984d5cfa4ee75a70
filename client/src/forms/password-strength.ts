import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import * as portuguese from '@zxcvbn-ts/language-pt-br'

/**
 * zxcvbn-ts with its common and Brazilian Portuguese dictionaries and pt-BR feedback. Large
 * (the dictionaries), so only password-strength-hint.tsx loads it, with import(), on the pages
 * where a password is chosen: never part of what #/login loads.
 */
const zxcvbn = new ZxcvbnFactory({
  translations: portuguese.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...portuguese.dictionary },
})

export interface Strength {
  /** 0 (guessed at once) to 4 (very hard to guess). */
  score: 0 | 1 | 2 | 3 | 4
  /** zxcvbn's advice, in pt-BR, when it has some. */
  warning: string | null
}

export function estimateStrength(password: string, userInputs: string[]): Strength {
  const result = zxcvbn.check(password, userInputs)
  return { score: result.score, warning: result.feedback.warning }
}
