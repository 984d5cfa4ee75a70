import { badRequest, ScimError, type ScimType } from './scim-error'
import {
  COMPARE_OPERATORS,
  type AttributePath,
  type CompareOperator,
  type Filter,
  type Literal,
  type PatchPath,
} from './filter-syntax'

/**
 * The SCIM filter language (RFC 7644 §3.4.2.2) and PATCH paths (§3.5.2), parsed by hand: the npm
 * parsers (scim2-parse-filter and its forks) accept filters the grammar refuses, have no bounds,
 * and throw plain errors; they serve as oracles in the tests instead.
 *
 * What is accepted, beyond Figure 1 to the letter:
 * - Operators, `and`/`or`/`not` and `true`/`false`/`null` in any case ("Attribute names and
 *   attribute operators used in filters are case insensitive"; Entra capitalises words).
 * - One or more blanks wherever the grammar puts SP, and blanks inside brackets and parentheses;
 *   `not (…)` with or without a blank (RFC 7644 erratum 7319: the RFC's own example has one).
 * - `$ref` as a name (RFC 7643 names it so, though ATTRNAME starts with a letter).
 *
 * Bounded, so that no filter costs more than a small query: MAX_FILTER_LENGTH characters,
 * MAX_FILTER_DEPTH levels of parentheses, `not` and brackets, MAX_FILTER_TERMS comparisons.
 * Every refusal is a ScimError (400, `invalidFilter`, or `invalidPath` for a PATCH path) whose
 * detail says where and what; nothing else is thrown.
 */

export const MAX_FILTER_LENGTH = 4096
export const MAX_FILTER_DEPTH = 16
export const MAX_FILTER_TERMS = 64

type Token =
  | { type: 'open' | 'close' | 'openBracket' | 'closeBracket'; at: number; text: string }
  | { type: 'word'; at: number; text: string }
  | { type: 'string'; at: number; text: string; value: string }
  | { type: 'number'; at: number; text: string; value: number }
  | { type: 'end'; at: number; text: '' }

/** A name, a URN-qualified name or a keyword: letters, digits and `:._-$` (URNs hold dots). */
const WORD = /[A-Za-z$][A-Za-z0-9:._$-]*/y
/** A JSON number (RFC 8259 §6). */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
/** A JSON string (RFC 8259 §7): no raw control characters, only JSON's escapes. */
// eslint-disable-next-line no-control-regex -- refusing raw control characters is the point
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const BLANK = /[ \t]+/y
const NAME = /^[A-Za-z$][A-Za-z0-9_$-]*$/

class Refusal extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let at = 0
  const match = (pattern: RegExp) => {
    pattern.lastIndex = at
    return pattern.exec(text)?.[0]
  }
  while (at < text.length) {
    const blank = match(BLANK)
    if (blank) {
      at += blank.length
      continue
    }
    const character = text[at]!
    const punctuation = {
      '(': 'open',
      ')': 'close',
      '[': 'openBracket',
      ']': 'closeBracket',
    } as const
    if (character in punctuation) {
      tokens.push({ type: punctuation[character as keyof typeof punctuation], at, text: character })
      at += 1
      continue
    }
    if (character === '"') {
      const quoted = match(STRING)
      if (!quoted) throw new Refusal(`an unterminated or malformed string at character ${at + 1}`)
      tokens.push({ type: 'string', at, text: quoted, value: JSON.parse(quoted) as string })
      at += quoted.length
      continue
    }
    const number = /[-0-9]/.test(character) ? match(NUMBER) : undefined
    if (number) {
      tokens.push({ type: 'number', at, text: number, value: Number(number) })
      at += number.length
      continue
    }
    const word = match(WORD)
    if (word) {
      tokens.push({ type: 'word', at, text: word })
      at += word.length
      continue
    }
    throw new Refusal(`an unexpected character ${JSON.stringify(character)} at character ${at + 1}`)
  }
  tokens.push({ type: 'end', at, text: '' })
  return tokens
}

/** `[URI ":"] ATTRNAME *1subAttr`, from one word token. */
function attributePath(word: string, at: number): AttributePath {
  const colon = word.lastIndexOf(':')
  const schema = colon >= 0 ? word.slice(0, colon) : undefined
  const names = word.slice(colon + 1).split('.')
  const [attribute, subAttribute, ...rest] = names
  const bad = !attribute || rest.length > 0 || names.some((name) => !NAME.test(name))
  if (bad || (schema !== undefined && !/^urn:[A-Za-z0-9:._-]+$/i.test(schema)))
    throw new Refusal(`${JSON.stringify(word)} at character ${at + 1} is not an attribute path`)
  return {
    ...(schema !== undefined ? { schema } : {}),
    attribute,
    ...(subAttribute !== undefined ? { subAttribute } : {}),
    text: word,
  }
}

const describe = (token: Token) =>
  token.type === 'end' ? 'the end of the filter' : JSON.stringify(token.text)

class Parser {
  private position = 0
  private terms = 0

  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.position + offset, this.tokens.length - 1)]!
  }

  private next(): Token {
    const token = this.peek()
    if (token.type !== 'end') this.position += 1
    return token
  }

  private isWord(token: Token, ...words: string[]): boolean {
    return token.type === 'word' && words.includes(token.text.toLowerCase())
  }

  private expect(type: Token['type'], what: string): Token {
    const token = this.next()
    if (token.type !== type)
      throw new Refusal(`expected ${what} at character ${token.at + 1}, found ${describe(token)}`)
    return token
  }

  /** FILTER, up to a closing parenthesis or bracket or the end. */
  filter(depth: number, insideValuePath: boolean): Filter {
    let left = this.conjunction(depth, insideValuePath)
    while (this.isWord(this.peek(), 'or')) {
      this.next()
      left = { kind: 'or', left, right: this.conjunction(depth, insideValuePath) }
    }
    return left
  }

  private conjunction(depth: number, insideValuePath: boolean): Filter {
    let left = this.unary(depth, insideValuePath)
    while (this.isWord(this.peek(), 'and')) {
      this.next()
      left = { kind: 'and', left, right: this.unary(depth, insideValuePath) }
    }
    return left
  }

  private nested(depth: number): number {
    if (depth + 1 > MAX_FILTER_DEPTH)
      throw new Refusal(`it nests deeper than ${MAX_FILTER_DEPTH} levels`)
    return depth + 1
  }

  private unary(depth: number, insideValuePath: boolean): Filter {
    const token = this.peek()
    if (this.isWord(token, 'not') && this.peek(1).type === 'open') {
      this.next()
      return { kind: 'not', filter: this.group(this.nested(depth), insideValuePath) }
    }
    if (token.type === 'open') return this.group(this.nested(depth), insideValuePath)
    return this.attributeExpression(depth, insideValuePath)
  }

  private group(depth: number, insideValuePath: boolean): Filter {
    this.expect('open', '"("')
    const inner = this.filter(depth, insideValuePath)
    this.expect('close', '")"')
    return inner
  }

  private attributeExpression(depth: number, insideValuePath: boolean): Filter {
    const token = this.next()
    if (token.type !== 'word')
      throw new Refusal(
        `expected an attribute at character ${token.at + 1}, found ${describe(token)}`,
      )
    const path = attributePath(token.text, token.at)
    if (this.peek().type === 'openBracket') {
      if (insideValuePath)
        throw new Refusal(`a value filter at character ${token.at + 1} is inside another one`)
      if (path.subAttribute !== undefined)
        throw new Refusal(`${JSON.stringify(token.text)} names a sub-attribute before "["`)
      this.next()
      const filter = this.filter(this.nested(depth), true)
      this.expect('closeBracket', '"]"')
      return { kind: 'valuePath', path, filter }
    }
    if ((this.terms += 1) > MAX_FILTER_TERMS)
      throw new Refusal(`it has more than ${MAX_FILTER_TERMS} comparisons`)
    const operatorToken = this.next()
    const operator = operatorToken.type === 'word' ? operatorToken.text.toLowerCase() : ''
    if (operator === 'pr') return { kind: 'present', path }
    if (!COMPARE_OPERATORS.includes(operator as CompareOperator)) {
      const found =
        operatorToken.type === 'word'
          ? `the operator ${JSON.stringify(operatorToken.text)}, which is not supported`
          : describe(operatorToken)
      throw new Refusal(
        `expected an operator (eq, ne, co, sw, ew, gt, ge, lt, le or pr) after ${JSON.stringify(token.text)} at character ${operatorToken.at + 1}, found ${found}`,
      )
    }
    return { kind: 'compare', path, operator: operator as CompareOperator, value: this.literal() }
  }

  private literal(): Literal {
    const token = this.next()
    if (token.type === 'string' || token.type === 'number') return token.value
    if (token.type === 'word') {
      const word = token.text.toLowerCase()
      if (word === 'true') return true
      if (word === 'false') return false
      if (word === 'null') return null
    }
    throw new Refusal(
      `expected a value (a "string", a number, true, false or null) at character ${token.at + 1}, found ${describe(token)}`,
    )
  }

  end(): void {
    const token = this.peek()
    if (token.type !== 'end')
      throw new Refusal(`unexpected ${describe(token)} at character ${token.at + 1}`)
  }

  /** PATH = attrPath / valuePath [subAttr], where a valuePath's subAttr is `.name`. */
  patchPath(text: string): PatchPath {
    const token = this.next()
    if (token.type !== 'word')
      throw new Refusal(
        `expected an attribute at character ${token.at + 1}, found ${describe(token)}`,
      )
    const path = attributePath(token.text, token.at)
    if (this.peek().type !== 'openBracket') {
      this.end()
      return { path, text }
    }
    if (path.subAttribute !== undefined)
      throw new Refusal(`${JSON.stringify(token.text)} names a sub-attribute before "["`)
    this.next()
    const filter = this.filter(1, true)
    this.expect('closeBracket', '"]"')
    this.end()
    return { path, filter, text }
  }
}

/** `emails[type eq "work"].value`: the sub-attribute after the closing bracket, split off first. */
const SUB_ATTRIBUTE_AFTER_BRACKET = /\]\.([A-Za-z$][A-Za-z0-9_$-]*)$/

/** Runs `parse`, turning any refusal (or slip) into the one ScimError the caller expects. */
function refusing<T>(scimType: ScimType, what: string, text: unknown, parse: () => T): T {
  if (typeof text !== 'string' || text.trim() === '')
    throw badRequest(scimType, `The ${what} is empty.`)
  if (text.length > MAX_FILTER_LENGTH)
    throw badRequest(scimType, `The ${what} is longer than ${MAX_FILTER_LENGTH} characters.`)
  try {
    return parse()
  } catch (error) {
    if (error instanceof ScimError) throw error
    const reason = error instanceof Refusal ? error.message : 'it could not be read'
    throw badRequest(scimType, `The ${what} is not valid: ${reason}.`)
  }
}

/** A `filter` query parameter (RFC 7644 §3.4.2.2), or a ScimError `invalidFilter`. */
export function parseFilter(text: unknown): Filter {
  return refusing('invalidFilter', 'filter', text, () => {
    const parser = new Parser(tokenize(text as string))
    const filter = parser.filter(0, false)
    parser.end()
    return filter
  })
}

/** A PATCH operation's `path` (RFC 7644 §3.5.2), or a ScimError `invalidPath`. */
export function parsePatchPath(text: unknown): PatchPath {
  return refusing('invalidPath', 'path', text, () => {
    const whole = text as string
    const after = SUB_ATTRIBUTE_AFTER_BRACKET.exec(whole)
    const head = after ? whole.slice(0, after.index + 1) : whole
    const parsed = new Parser(tokenize(head)).patchPath(whole)
    if (after && !parsed.filter) throw new Refusal(`"${whole}" is not a path`)
    return after ? { ...parsed, subAttribute: after[1]! } : parsed
  })
}

/**
 * An attribute path alone, as `attributes`, `excludedAttributes` and `sortBy` list them, or a
 * PATCH value object's key (`name.givenName`, a URN-qualified name). Null when it is not one.
 */
export function parseAttributePath(text: string): AttributePath | null {
  try {
    WORD.lastIndex = 0
    const word = WORD.exec(text)?.[0]
    return word === text ? attributePath(text, 0) : null
  } catch {
    return null
  }
}
