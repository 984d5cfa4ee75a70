import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The offline list of common and breached passwords that NIST SP 800-63B asks a verifier to
 * refuse. Read from installed packages, never fetched: the most used passwords of the breach
 * corpora zxcvbn-ts ships (@zxcvbn-ts/language-common) and of the RockYou breach (rockyou), with
 * the Brazilian Portuguese words and names of @zxcvbn-ts/language-pt-br (people pick "flamengo"
 * and "palmeiras" as they pick "football"). Loaded once, on first use or by preload().
 */
const require = createRequire(import.meta.url)

function jsonList(specifier: string): string[] {
  return JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as string[]
}

function lineList(specifier: string): string[] {
  return readFileSync(require.resolve(specifier), 'utf8').split(/\r?\n/)
}

let list: Set<string> | null = null

function load(): Set<string> {
  const entries = [
    ...jsonList('@zxcvbn-ts/language-common/src/passwords.json'),
    // The largest of the package's nested lists (its data folder holds them from 5 to 75).
    ...lineList('rockyou/data/75.txt'),
    ...jsonList('@zxcvbn-ts/language-pt-br/src/commonWords.json'),
    ...jsonList('@zxcvbn-ts/language-pt-br/src/wikipedia.json'),
    ...jsonList('@zxcvbn-ts/language-pt-br/src/firstnames.json'),
    ...jsonList('@zxcvbn-ts/language-pt-br/src/lastnames.json'),
  ]
  const set = new Set<string>()
  for (const entry of entries) {
    const word = fold(entry)
    if (word !== '') set.add(word)
  }
  return set
}

const fold = (value: string) => value.normalize('NFC').trim().toLowerCase()

/** How many distinct entries the list holds (docs/security.md quotes it). */
export function commonPasswordCount(): number {
  list ??= load()
  return list.size
}

/** Reads the list now, so that the first password set does not wait for it. */
export function preloadCommonPasswords(): void {
  list ??= load()
}

/**
 * Whether the password is on the list, ignoring case, or is a listed word with digits or
 * symbols after it ("senha123", "Flamengo2024!"): the commonest way of "strengthening" a word.
 */
export function isCommonPassword(password: string): boolean {
  list ??= load()
  const candidate = fold(password)
  if (list.has(candidate)) return true
  const base = candidate.replace(/[\d\W_]+$/u, '')
  return base.length >= 4 && base !== candidate && list.has(base)
}
