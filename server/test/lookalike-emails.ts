/**
 * Addresses that look like, or fold into, another person's ASCII address: each would become
 * `imitates` if it were lower-cased with JavaScript's toLowerCase (U+212A, U+212B), upper-cased
 * then lower-cased (U+017F, U+0131), NFKC-normalised (fullwidth), stripped of accents or of
 * invisible characters. The one canonical form (common/account-rules.ts) refuses them all; the
 * tests of every path that compares addresses try each (server/accounts/lookalike-emails-api.test.ts).
 */
export interface LookAlike {
  what: string
  address: string
  /** The real address it must never reach. */
  imitates: string
}

export const LOOK_ALIKES: readonly LookAlike[] = [
  { what: 'U+212A KELVIN SIGN', address: '\u212Aate@corp.test', imitates: 'kate@corp.test' },
  { what: 'U+212B ANGSTROM SIGN', address: '\u212Bsa@corp.test', imitates: 'asa@corp.test' },
  {
    what: 'U+017F LATIN SMALL LETTER LONG S',
    address: '\u017Fam@corp.test',
    imitates: 'sam@corp.test',
  },
  {
    what: 'U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE',
    address: '\u0130vo@corp.test',
    imitates: 'ivo@corp.test',
  },
  {
    what: 'U+0131 LATIN SMALL LETTER DOTLESS I',
    address: '\u0131vo@corp.test',
    imitates: 'ivo@corp.test',
  },
  { what: 'fullwidth letters', address: '\uFF4B\uFF41te@corp.test', imitates: 'kate@corp.test' },
  { what: 'zero-width space', address: 'ka\u200Bte@corp.test', imitates: 'kate@corp.test' },
  { what: 'zero-width joiner', address: 'ka\u200Dte@corp.test', imitates: 'kate@corp.test' },
  { what: 'combining accent', address: 'ka\u0301te@corp.test', imitates: 'kate@corp.test' },
  { what: 'fullwidth at sign', address: 'kate\uFF20corp.test', imitates: 'kate@corp.test' },
]

/** The distinct real addresses the list imitates. */
export const IMITATED: readonly string[] = [...new Set(LOOK_ALIKES.map((entry) => entry.imitates))]
