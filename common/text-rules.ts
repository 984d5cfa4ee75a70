/**
 * What text from a request may hold before anything stores or compares it. PostgreSQL refuses
 * NUL in text outright (a 500 if it got that far), and no field a person types has a reason to
 * carry other control characters or a half of a surrogate pair.
 */

/** C0 and C1 control characters, DEL included (tab and newline too: every field is one line). */
const CONTROL_CHARACTER = /\p{Cc}/u
/** A UTF-16 surrogate without its partner: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export function isStorableText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value)
}

export const UNSTORABLE_TEXT_MESSAGE = 'Dados inválidos: o texto contém caracteres não permitidos.'
