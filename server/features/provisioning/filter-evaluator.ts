import { foldCase, type AttributeDefinition, type ResourceKind } from './attribute-schema'
import {
  checkComparison,
  filterTarget,
  parseDateTime,
  valuePathTarget,
  type CheckedComparison,
} from './filter-checks'
import type { Filter } from './filter-syntax'

/**
 * A filter run in memory over a resource's representation (a plain JSON object, keys as the
 * schema spells them or in any case): PATCH's value-path filters (`members[value eq "…"]`), and
 * the tests' reference for what the SQL of filter-to-sql.ts must select.
 *
 * The filter is checked when it is compiled, before any resource is looked at, so a filter
 * that is refused is refused on an empty list too. Comparisons follow filter-checks.ts; text is
 * ordered by code point, as both engines order it byte by byte (filter-to-sql.ts).
 */

export type Predicate = (item: unknown) => boolean

/** The predicate of `filter` on resources of `kind`, or, with `parent`, on its elements. */
export function compileFilter(
  kind: ResourceKind,
  filter: Filter,
  parent?: AttributeDefinition,
): Predicate {
  switch (filter.kind) {
    case 'and': {
      const [left, right] = [
        compileFilter(kind, filter.left, parent),
        compileFilter(kind, filter.right, parent),
      ]
      return (item) => left(item) && right(item)
    }
    case 'or': {
      const [left, right] = [
        compileFilter(kind, filter.left, parent),
        compileFilter(kind, filter.right, parent),
      ]
      return (item) => left(item) || right(item)
    }
    case 'not': {
      const inner = compileFilter(kind, filter.filter, parent)
      return (item) => !inner(item)
    }
    case 'valuePath': {
      const attribute = valuePathTarget(kind, filter.path, parent)
      const inner = compileFilter(kind, filter.filter, attribute)
      return (item) => elementsOf(property(item, attribute.name)).some((element) => inner(element))
    }
    case 'present': {
      const target = filterTarget(kind, filter.path, parent)
      return (item) => valuesAt(item, target.attribute, target.subAttribute).some(isNonEmpty)
    }
    case 'compare': {
      const target = filterTarget(kind, filter.path, parent)
      const comparison = checkComparison(target, filter.operator, filter.value, filter.path.text)
      if (comparison.type === 'presence') {
        return (item) =>
          valuesAt(item, target.attribute, target.subAttribute).some(isNonEmpty) ===
          comparison.present
      }
      const test = comparer(comparison)
      return (item) => valuesAt(item, target.attribute, target.subAttribute).some(test)
    }
  }
}

/** A comparison of one value (a constant of filter-to-sql.ts): the same rules as above. */
export function compareWithConstant(comparison: CheckedComparison, value: unknown): boolean {
  if (comparison.type === 'presence') return isNonEmpty(value) === comparison.present
  return comparer(comparison)(value)
}

/** An object's property by a case-insensitive name (RFC 7643 §2.1). */
export function property(item: unknown, name: string): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined
  const record = item as Record<string, unknown>
  if (name in record) return record[name]
  const lower = name.toLowerCase()
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower)
  return key === undefined ? undefined : record[key]
}

const elementsOf = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]

/** Every value the path reaches: one per element of a multi-valued attribute. */
function valuesAt(item: unknown, attribute: AttributeDefinition, subAttribute?: string): unknown[] {
  const values = elementsOf(property(item, attribute.name))
  return subAttribute === undefined
    ? values
    : values.map((element) => property(element, subAttribute)).flatMap(elementsOf)
}

/** RFC 7644 §3.4.2.2 `pr`: a non-empty value, or a complex one with a non-empty node. */
function isNonEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false
  if (Array.isArray(value)) return value.some(isNonEmpty)
  if (typeof value === 'object' && !(value instanceof Date))
    return Object.values(value).some(isNonEmpty)
  return true
}

/** Code point order, as UTF-8 bytes compare: JavaScript's < compares UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const [left, right] = [Array.from(a), Array.from(b)]
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!
    if (difference !== 0) return difference
  }
  return left.length - right.length
}

function ordered(operator: string, difference: number): boolean {
  switch (operator) {
    case 'eq':
      return difference === 0
    case 'ne':
      return difference !== 0
    case 'gt':
      return difference > 0
    case 'ge':
      return difference >= 0
    case 'lt':
      return difference < 0
    default:
      return difference <= 0
  }
}

function comparer(
  comparison: Exclude<CheckedComparison, { type: 'presence' }>,
): (value: unknown) => boolean {
  switch (comparison.type) {
    case 'string': {
      const fold = comparison.caseExact ? (text: string) => text : foldCase
      const wanted = fold(comparison.value)
      return (value) => {
        if (typeof value !== 'string') return false
        const text = fold(value)
        if (comparison.operator === 'co') return text.includes(wanted)
        if (comparison.operator === 'sw') return text.startsWith(wanted)
        if (comparison.operator === 'ew') return text.endsWith(wanted)
        return ordered(comparison.operator, compareCodePoints(text, wanted))
      }
    }
    case 'boolean':
      return (value) =>
        typeof value === 'boolean' &&
        (value === comparison.value) === (comparison.operator === 'eq')
    case 'dateTime': {
      const wanted = comparison.value.getTime()
      return (value) => {
        const date =
          value instanceof Date ? value : typeof value === 'string' ? parseDateTime(value) : null
        return date !== null && ordered(comparison.operator, date.getTime() - wanted)
      }
    }
    case 'number':
      return (value) =>
        typeof value === 'number' && ordered(comparison.operator, value - comparison.value)
  }
}
