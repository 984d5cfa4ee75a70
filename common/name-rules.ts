import { isStorableText } from './text-rules'

/**
 * A person's name as Equipe shows it to others: trimmed, in Unicode NFC (so one name has one
 * spelling), without characters that reorder or hide what is shown around it.
 */
export const NAME_MAX_LENGTH = 100

/** Right-to-left/left-to-right marks, embeddings, overrides and isolates: they can make a name read as another. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u
/** Something that shows: not a space, not a combining mark alone, not a zero-width or filler character. */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\p{Cc}]/u

export function normalizeName(raw: string): string {
  return raw.normalize('NFC').trim()
}

/** Why a name is refused, in pt-BR: the server answers with these words too. */
export const NAME_PROBLEM_MESSAGES = {
  unstorable: 'O nome contém caracteres não permitidos.',
  missing: 'Informe seu nome.',
  tooLong: `O nome deve ter no máximo ${NAME_MAX_LENGTH} caracteres.`,
} as const

/** Why a name is refused (pt-BR), or null when it is fine. Checks the normalised form. */
export function nameProblem(raw: string): string | null {
  const name = normalizeName(raw)
  if (!isStorableText(name) || BIDI_CONTROL.test(name)) return NAME_PROBLEM_MESSAGES.unstorable
  if (!VISIBLE.test(name)) return NAME_PROBLEM_MESSAGES.missing
  if ([...name].length > NAME_MAX_LENGTH) return NAME_PROBLEM_MESSAGES.tooLong
  return null
}
