import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { parse as oracleParse, type Filter as OracleFilter } from 'scim2-parse-filter'
import {
  MAX_FILTER_DEPTH,
  MAX_FILTER_LENGTH,
  MAX_FILTER_TERMS,
  parseAttributePath,
  parseFilter,
  parsePatchPath,
} from './filter-parser'
import type { AttributePath, Filter } from './filter-syntax'
import { ScimError } from './scim-error'

/** Our tree in scim2-parse-filter's shape: n-ary and/or, paths as one string. */
function asOracle(filter: Filter): OracleFilter {
  const pathText = (path: AttributePath) =>
    `${path.schema !== undefined ? `${path.schema}:` : ''}${path.attribute}${path.subAttribute !== undefined ? `.${path.subAttribute}` : ''}`
  switch (filter.kind) {
    case 'and':
    case 'or': {
      const parts = [filter.left, filter.right].map(asOracle)
      const filters = parts.flatMap((part) =>
        part.op === filter.kind ? (part as { filters: OracleFilter[] }).filters : [part],
      )
      return { op: filter.kind, filters }
    }
    case 'not':
      return { op: 'not', filter: asOracle(filter.filter) }
    case 'valuePath':
      return { op: '[]', attrPath: pathText(filter.path), valFilter: asOracle(filter.filter) }
    case 'present':
      return { op: 'pr', attrPath: pathText(filter.path) }
    case 'compare':
      return { op: filter.operator, attrPath: pathText(filter.path), compValue: filter.value }
  }
}

/** `a and (b and c)` as `a and b and c`, at every level. */
function merged(filter: OracleFilter): OracleFilter {
  switch (filter.op) {
    case 'and':
    case 'or': {
      const { op, filters } = filter
      return {
        op,
        filters: filters
          .map(merged)
          .flatMap((part) =>
            part.op === op ? (part as { filters: OracleFilter[] }).filters : [part],
          ),
      }
    }
    case 'not':
      return { op: 'not', filter: merged((filter as { filter: OracleFilter }).filter) }
    case '[]': {
      const valuePath = filter as { attrPath: string; valFilter: OracleFilter }
      return { op: '[]', attrPath: valuePath.attrPath, valFilter: merged(valuePath.valFilter) }
    }
    default:
      return filter
  }
}

/** The examples of RFC 7644 §3.4.2.2, as the RFC writes them. */
const RFC_EXAMPLES = [
  'userName eq "bjensen"',
  `name.familyName co "O'Malley"`,
  'userName sw "J"',
  'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
  'title pr',
  'meta.lastModified gt "2011-05-13T04:42:34Z"',
  'meta.lastModified ge "2011-05-13T04:42:34Z"',
  'meta.lastModified lt "2011-05-13T04:42:34Z"',
  'meta.lastModified le "2011-05-13T04:42:34Z"',
  'title pr and userType eq "Employee"',
  'title pr or userType eq "Intern"',
  'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
  'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
  'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
  'userType eq "Employee" and (emails.type eq "work")',
  'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
  'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
]

/** What Entra ID and Okta send (their SCIM documentation). */
const DIRECTORY_FILTERS = [
  'userName eq "ana.souza@corp.example"',
  'externalId eq "0a5b3c1e-7d1b-4a35-9b9a-3d2f1c0b9e8d"',
  'displayName eq "Financeiro"',
  'id eq "3f6b5a86-2f34-4b11-9d43-8a0c4f2e7b1d" and members[value eq "6a1d2e3f-4b5c-4d7e-8f90-a1b2c3d4e5f6"]',
]

const refusal = (run: () => unknown): ScimError => {
  try {
    run()
  } catch (error) {
    assert.ok(error instanceof ScimError, `a ScimError, not ${String(error)}`)
    return error
  }
  assert.fail('expected a refusal')
}

describe('parseFilter', () => {
  it('reads every example of RFC 7644 §3.4.2.2 and every directory filter as scim2-parse-filter does', () => {
    for (const text of [...RFC_EXAMPLES, ...DIRECTORY_FILTERS]) {
      assert.deepEqual(asOracle(parseFilter(text)), oracleParse(text), text)
    }
  })

  it('binds not before and before or, and parentheses first (§3.4.2.2)', () => {
    const filter = parseFilter('a eq 1 or b eq 2 and not (c eq 3) or (d pr)')
    assert.deepEqual(asOracle(filter), {
      op: 'or',
      filters: [
        { op: 'eq', attrPath: 'a', compValue: 1 },
        {
          op: 'and',
          filters: [
            { op: 'eq', attrPath: 'b', compValue: 2 },
            { op: 'not', filter: { op: 'eq', attrPath: 'c', compValue: 3 } },
          ],
        },
        { op: 'pr', attrPath: 'd' },
      ],
    })
  })

  it('takes operators, logical words and true/false/null in any case; keeps names as written', () => {
    const filter = parseFilter('UserName EQ "x" AND Active Eq TRUE Or NOT (title EQ Null)')
    assert.deepEqual(asOracle(filter), {
      op: 'or',
      filters: [
        {
          op: 'and',
          filters: [
            { op: 'eq', attrPath: 'UserName', compValue: 'x' },
            { op: 'eq', attrPath: 'Active', compValue: true },
          ],
        },
        { op: 'not', filter: { op: 'eq', attrPath: 'title', compValue: null } },
      ],
    })
  })

  it('reads JSON strings with every escape, and JSON numbers', () => {
    const filter = parseFilter(
      String.raw`name.formatted eq "Jos\u00e9 \"Zé\" \\ \/ \t" or x gt -1.5e2`,
    )
    assert.deepEqual(filter, {
      kind: 'or',
      left: {
        kind: 'compare',
        path: { attribute: 'name', subAttribute: 'formatted', text: 'name.formatted' },
        operator: 'eq',
        value: 'José "Zé" \\ / \t',
      },
      right: {
        kind: 'compare',
        path: { attribute: 'x', text: 'x' },
        operator: 'gt',
        value: -150,
      },
    })
  })

  it('splits a URN-qualified path at its last colon', () => {
    const filter = parseFilter(
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "x"',
    )
    assert.equal(filter.kind, 'compare')
    assert.deepEqual(filter.kind === 'compare' && filter.path, {
      schema: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      attribute: 'manager',
      subAttribute: 'value',
      text: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value',
    })
  })

  const refused: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['userName', /expected an operator/],
    ['userName equals "x"', /the operator "equals", which is not supported/],
    ['userName regex "x"', /"regex", which is not supported/],
    ['userName eq', /expected a value/],
    ['userName eq bjensen', /expected a value/],
    ['userName eq "unterminated', /unterminated or malformed string/],
    ['userName eq "bad \\x escape"', /malformed string/],
    ['userName eq "raw\u0001control"', /malformed string/],
    ['userName eq 01', /unexpected "1"|expected/],
    ['userName eq "a" userName eq "b"', /unexpected "userName"/],
    ['userName eq "a" and', /expected an attribute at character 20, found the end/],
    ['(userName eq "a"', /expected "\)"/],
    ['userName eq "a")', /unexpected "\)"/],
    ['not userName eq "a"', /expected an operator/],
    ['emails[type eq "work"', /expected "\]"/],
    ['emails[type eq "work"].value eq "x"', /unexpected/],
    ['emails[value[type eq "x"] pr]', /inside another one/],
    ['emails.value[type eq "x"]', /sub-attribute before/],
    ['name.givenName.first eq "x"', /is not an attribute path/],
    ['1abc eq "x"', /expected an attribute/],
    ['user#name eq "x"', /unexpected character "#"/],
    ['nope:userName eq "x"', /is not an attribute path/],
  ]
  for (const [text, detail] of refused) {
    it(`refuses ${JSON.stringify(text)} with invalidFilter`, () => {
      const error = refusal(() => parseFilter(text))
      assert.equal(error.status, 400)
      assert.equal(error.scimType, 'invalidFilter')
      assert.match(error.detail, detail)
      assert.match(error.detail, /^The filter /)
    })
  }

  it('refuses what is not text, and what is too long, too deep or too many', () => {
    assert.equal(refusal(() => parseFilter(undefined)).scimType, 'invalidFilter')
    assert.equal(refusal(() => parseFilter(['a eq 1'])).scimType, 'invalidFilter')
    const long = `userName eq "${'a'.repeat(MAX_FILTER_LENGTH)}"`
    assert.match(refusal(() => parseFilter(long)).detail, /longer than 4096 characters/)
    const deep = `${'('.repeat(MAX_FILTER_DEPTH + 1)}a pr${')'.repeat(MAX_FILTER_DEPTH + 1)}`
    assert.match(refusal(() => parseFilter(deep)).detail, /nests deeper than 16 levels/)
    const notDeep = `${'not ('.repeat(MAX_FILTER_DEPTH)}a pr${')'.repeat(MAX_FILTER_DEPTH)}`
    assert.equal(parseFilter(notDeep).kind, 'not')
    const many = Array.from({ length: MAX_FILTER_TERMS + 1 }, (_, i) => `a eq ${i}`).join(' or ')
    assert.match(refusal(() => parseFilter(many)).detail, /more than 64 comparisons/)
    const enough = Array.from({ length: MAX_FILTER_TERMS }, (_, i) => `a eq ${i}`).join(' or ')
    assert.equal(parseFilter(enough).kind, 'or')
  })

  it('never throws anything but a ScimError, whatever the text (property)', () => {
    const alphabet = fc.constantFrom(
      ...'abcEQ ()[]"\\.:-0129 eqnotandorprswew\u00e9\u212a\u0000urn'.split(''),
      ' eq ',
      ' and ',
      ' or ',
      'not (',
      '"x"',
      'emails[',
      ']',
    )
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        try {
          parseFilter(parts.join(''))
        } catch (error) {
          assert.ok(error instanceof ScimError, String(error))
          assert.equal(error.scimType, 'invalidFilter')
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('agrees with scim2-parse-filter on generated filters (property)', () => {
    const name = fc.constantFrom(
      'userName',
      'name.givenName',
      'emails',
      'meta.lastModified',
      'x-y_z',
    )
    // Within what the oracle reads right: it decodes no JSON escape but \" (it keeps "\u00e9"
    // as six characters), and cannot read a negative number before a blank or parenthesis.
    const value = fc.oneof(
      fc.string({ maxLength: 8 }).filter((text) => !text.includes('\\')),
      fc.integer({ min: 0, max: 1000 }),
      fc.boolean(),
      fc.constant(null),
    )
    const operator = fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le')
    const comparison = fc
      .tuple(name, operator, value)
      .map(([path, op, compValue]) => `${path} ${op} ${JSON.stringify(compValue)}`)
    const present = name.map((path) => `${path} pr`)
    const { filter } = fc.letrec<{ filter: string }>((tie) => ({
      filter: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        comparison,
        present,
        fc
          .tuple(tie('filter'), fc.constantFrom('and', 'or'), tie('filter'))
          .map(([a, op, b]) => `${a} ${op} ${b}`),
        tie('filter').map((inner) => `not (${inner})`),
        tie('filter').map((inner) => `(${inner})`),
        comparison.map((inner) => `emails[${inner.replace(/^\S+/, 'type')}]`),
      ),
    }))
    fc.assert(
      fc.property(filter, (text) => {
        // The oracle keeps a parenthesised `and` inside an `and` as its own node: compare the
        // trees with such groups merged (the same meaning). Its own flatten() recurses without
        // end on any `not`.
        assert.deepEqual(merged(asOracle(parseFilter(text))), merged(oracleParse(text)), text)
      }),
      { numRuns: 1500 },
    )
  })
})

describe('parsePatchPath', () => {
  it('reads attribute paths, value paths and a value path with its sub-attribute (§3.5.2)', () => {
    assert.deepEqual(parsePatchPath('name.givenName'), {
      path: { attribute: 'name', subAttribute: 'givenName', text: 'name.givenName' },
      text: 'name.givenName',
    })
    const work = parsePatchPath('emails[type eq "work"].value')
    assert.equal(work.subAttribute, 'value')
    assert.deepEqual(work.filter, {
      kind: 'compare',
      path: { attribute: 'type', text: 'type' },
      operator: 'eq',
      value: 'work',
    })
    const member = parsePatchPath('members[value eq "2819c223-7f76-453a-919d-413861904646"]')
    assert.equal(member.path.attribute, 'members')
    assert.equal(member.subAttribute, undefined)
    assert.equal(
      parsePatchPath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber')
        .path.schema,
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    )
  })

  for (const text of [
    '',
    'emails[type eq "work"] .value',
    'emails[type eq "work"].value.x',
    'emails[type eq "work"]value',
    'emails[type eq work]',
    'name..givenName',
    'members[value eq "x"',
    'userName eq "x"',
  ]) {
    it(`refuses the path ${JSON.stringify(text)} with invalidPath`, () => {
      const error = refusal(() => parsePatchPath(text))
      assert.equal(error.scimType, 'invalidPath')
      assert.match(error.detail, /^The path /)
    })
  }
})

describe('parseAttributePath', () => {
  it('reads a bare, dotted or URN-qualified name and nothing else', () => {
    assert.deepEqual(parseAttributePath('name.givenName'), {
      attribute: 'name',
      subAttribute: 'givenName',
      text: 'name.givenName',
    })
    assert.equal(
      parseAttributePath('urn:ietf:params:scim:schemas:core:2.0:User:userName')?.attribute,
      'userName',
    )
    assert.equal(parseAttributePath('emails[type eq "work"]'), null)
    assert.equal(parseAttributePath('a b'), null)
    assert.equal(parseAttributePath(''), null)
  })
})
