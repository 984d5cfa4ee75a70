import { resolvePath, type AttributeDefinition, type ResourceKind } from './attribute-schema'
import type { AttributePath, CompareOperator, Literal } from './filter-syntax'
import { badRequest } from './scim-error'

/**
 * What a filter may compare, checked once and shared by the two ways a filter runs: in memory
 * (filter-evaluator.ts) and in SQL (filter-to-sql.ts), so that both refuse the same filters with
 * the same words and agree on what the rest mean.
 *
 * Choices where RFC 7644 §3.4.2.2 is silent or leaves room:
 * - An attribute no schema defines, or one Painel does not keep (`title`), is `invalidFilter`
 *   rather than "matches nothing": Table 9 calls a filter invalid when "the specified attribute
 *   and filter comparison combination is not supported", and a directory that misspells
 *   `userName` should hear so rather than create a duplicate.
 * - A complex attribute needs a sub-attribute (§3.4.2.2: "a fully qualified sub-attribute MUST
 *   be specified"), except a multi-valued one, which stands for its `value` (the RFC's own
 *   example: `emails co "example.com"`).
 * - `eq null` means "has no value" and `ne null` "has a value" (RFC 7643 §2.5: unassigned and
 *   null are the same state); any other operator with null is refused.
 * - gt/ge/lt/le on a boolean, and co/sw/ew on anything but text, are refused (Table 3).
 * - A value of the wrong type for its attribute (`active eq "yes"`, `meta.created gt 5`) is
 *   refused, not coerced.
 * - `ne` and the other operators match when some value of the attribute satisfies them (§3.4.2.2:
 *   "the filter matches if any of the values … match"): an unassigned attribute matches no
 *   comparison, `ne` included; `not (x eq "a")` is how to include it.
 */

export interface FilterTarget {
  /** The attribute the path starts from (`emails` in `emails.value`). */
  attribute: AttributeDefinition
  /** The attribute whose values are compared (`value`), the same as `attribute` when simple. */
  leaf: AttributeDefinition
  /** The sub-attribute's name when the leaf is one. */
  subAttribute?: string
}

function resolveForFilter(kind: ResourceKind, path: AttributePath, parent?: AttributeDefinition) {
  const resolution = resolvePath(kind, path, parent)
  if (resolution.kind === 'unknown')
    throw badRequest(
      'invalidFilter',
      `The filter names an unknown attribute: ${resolution.reason}.`,
    )
  if (resolution.kind === 'discarded')
    throw badRequest(
      'invalidFilter',
      `The filter names "${path.text}", which Painel does not keep and cannot filter on.`,
    )
  return resolution
}

/** The complex attribute a value path (`emails[…]`) selects elements of. */
export function valuePathTarget(
  kind: ResourceKind,
  path: AttributePath,
  parent?: AttributeDefinition,
): AttributeDefinition {
  const { attribute, subAttribute } = resolveForFilter(kind, path, parent)
  if (subAttribute || attribute.type !== 'complex')
    throw badRequest(
      'invalidFilter',
      `"${path.text}[…]" selects values of an attribute that has none: brackets follow a complex attribute such as "emails".`,
    )
  return attribute
}

export function filterTarget(
  kind: ResourceKind,
  path: AttributePath,
  parent?: AttributeDefinition,
): FilterTarget {
  const { attribute, subAttribute } = resolveForFilter(kind, path, parent)
  if (subAttribute) return { attribute, leaf: subAttribute, subAttribute: subAttribute.name }
  if (attribute.type !== 'complex') return { attribute, leaf: attribute }
  const value = attribute.multiValued
    ? attribute.subAttributes?.find((sub) => sub.name === 'value')
    : undefined
  if (!value)
    throw badRequest(
      'invalidFilter',
      `The filter compares the complex attribute "${path.text}": name one of its sub-attributes (for example "${path.text}.${attribute.subAttributes?.[0]?.name ?? 'value'}").`,
    )
  return { attribute, leaf: value, subAttribute: 'value' }
}

/** A comparison whose value suits its attribute, ready to run. */
export type CheckedComparison =
  | { type: 'presence'; present: boolean }
  | { type: 'string'; operator: CompareOperator; value: string; caseExact: boolean }
  | { type: 'boolean'; operator: 'eq' | 'ne'; value: boolean }
  | { type: 'dateTime'; operator: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le'; value: Date }
  | { type: 'number'; operator: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le'; value: number }

/** xsd:dateTime as RFC 7643 §2.3.5 asks: a date, a time and an offset or Z. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i

/** An xsd:dateTime as a Date, or null. Shared with the input parsers. */
export function parseDateTime(text: string): Date | null {
  if (!DATE_TIME.test(text)) return null
  const date = new Date(text)
  if (Number.isNaN(date.getTime())) return null
  // Date rolls 2025-02-30 over into March: a date it changed was not a date.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number)
  const offsetless = new Date(Date.UTC(year!, month! - 1, day))
  return offsetless.getUTCDate() === day && offsetless.getUTCMonth() === month! - 1 ? date : null
}

const ORDERING = ['gt', 'ge', 'lt', 'le'] as const

export function checkComparison(
  target: FilterTarget,
  operator: CompareOperator,
  value: Literal,
  pathText: string,
): CheckedComparison {
  const { leaf } = target
  const refuse = (why: string) =>
    badRequest(
      'invalidFilter',
      `The filter cannot compare "${pathText}" ${operator} ${JSON.stringify(value)}: ${why}.`,
    )
  if (value === null) {
    if (operator === 'eq' || operator === 'ne')
      return { type: 'presence', present: operator === 'ne' }
    throw refuse('null can only be compared with eq or ne')
  }
  switch (leaf.type) {
    case 'string':
    case 'reference':
      if (typeof value !== 'string')
        throw refuse(`"${pathText}" holds text, so the value must be a "string"`)
      return { type: 'string', operator, value, caseExact: leaf.caseExact }
    case 'boolean':
      if (operator !== 'eq' && operator !== 'ne')
        throw refuse('a boolean can only be compared with eq or ne')
      if (typeof value !== 'boolean')
        throw refuse(`"${pathText}" is a boolean, so the value must be true or false`)
      return { type: 'boolean', operator, value }
    case 'dateTime': {
      if (operator !== 'eq' && operator !== 'ne' && !ORDERING.includes(operator as 'gt'))
        throw refuse('a date and time can only be compared with eq, ne, gt, ge, lt or le')
      const date = typeof value === 'string' ? parseDateTime(value) : null
      if (!date) throw refuse('the value must be a date and time such as "2026-01-31T12:00:00Z"')
      return { type: 'dateTime', operator: operator as 'eq', value: date }
    }
    case 'integer':
    case 'decimal':
      if (operator !== 'eq' && operator !== 'ne' && !ORDERING.includes(operator as 'gt'))
        throw refuse('a number can only be compared with eq, ne, gt, ge, lt or le')
      if (typeof value !== 'number') throw refuse('the value must be a number')
      return { type: 'number', operator: operator as 'eq', value }
    default:
      throw refuse(`"${pathText}" cannot be compared`)
  }
}
