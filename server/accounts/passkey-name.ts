import { nameProblem, normalizeName } from '../../common/name-rules'

/**
 * A passkey's name ("Notebook do trabalho") follows the rules of a person's name (trimmed, NFC,
 * no reordering characters, something visible, at most 100 characters), with messages that
 * speak of the key.
 */
export function passkeyNameProblem(raw: string): string | null {
  const problem = nameProblem(raw)
  if (problem === null) return null
  if (problem === nameProblem('')) return 'Informe um nome para a chave de acesso.'
  return problem.replace(/^O nome/, 'O nome da chave')
}

export const normalizePasskeyName = normalizeName
