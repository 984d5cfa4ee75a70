/**
 * Names in Portuguese alphabetical order, the same in the browser and in both databases.
 *
 * The selects sort with `Intl.Collator('pt-BR')`. The list of Equipe is sorted by the database,
 * so that its pages stay right, and neither engine can sort that way by itself: SQLite (libsql)
 * has no ICU collations and takes no user functions, and PostgreSQL's depend on how the server
 * was built. So each name is stored with its sort key, and both engines compare keys byte by byte.
 *
 * The key is the collator's first level: letters without their accents and without case, so
 * "Úrsula" sorts as "ursula" (before "Yasmin") and "João" before "José". Ties on the key are
 * broken by the name itself, then by id, so the order is total and the same on both engines.
 */
export function nameSortKey(name: string): string {
  return (
    name
      .normalize('NFD')
      // The accents and cedillas, now separate marks, go; "ç" leaves "c".
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Letters that do not decompose but sort as their base letter.
      .replace(LIGATURE, (letter) => LIGATURES[letter] ?? letter)
  )
}

const LIGATURES: Record<string, string> = {
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ß: 'ss',
  þ: 'th',
}

// Made from the table's keys rather than written as a literal: the compiled server keeps a
// literal's letters as they are, and one letter outside ASCII makes V8 hold and scan the whole
// chunk as two-byte text (docs/performance.md, "A short start").
const LIGATURE = new RegExp(`[${Object.keys(LIGATURES).join('')}]`, 'g')

let collator: Intl.Collator | undefined

/**
 * The browser's side of the same order, for lists it sorts itself (the person selects). The
 * collator is made at the first comparison: the server imports this module for nameSortKey, and
 * a pt-BR collator built at its start read 3 MB of ICU's data into its memory for nothing.
 */
export function compareNames(a: string, b: string): number {
  collator ??= new Intl.Collator('pt-BR', { usage: 'sort' })
  return collator.compare(a, b)
}
