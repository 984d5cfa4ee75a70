import { isStorableText } from '../../../common/text-rules'
import { findNamed, type AttributeDefinition } from './attribute-schema'
import { parseDateTime } from './filter-checks'
import { badRequest } from './scim-error'

/**
 * A value from a request made to fit its attribute's type (RFC 7643 §2.3), or refused with
 * `invalidValue`. Shared by PATCH (patch-operations.ts) and the POST/PUT parsers.
 *
 * - Booleans: true/false, and the strings "true"/"false" in any case: Entra ID sends
 *   `{"active":"False"}` in PATCH (its documented quirk), and refusing it would leave the person
 *   active.
 * - Text: at most MAX_VALUE_LENGTH characters and storable (no control characters, no half
 *   surrogate: common/text-rules.ts); a 10,000-character value is a 400, not a database error.
 * - Complex values: an object; a kept sub-attribute is made to fit, one Painel does not keep is
 *   dropped, an unknown one is refused.
 * - null is "unassigned" (RFC 7643 §2.5): the caller removes the attribute.
 */

export const MAX_VALUE_LENGTH = 2048

export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

const refuse = (where: string, why: string) =>
  badRequest('invalidValue', `The value of "${where}" ${why}.`)

/** Text of any attribute: bounded and storable. */
export function checkedText(value: string, where: string): string {
  if (value.length > MAX_VALUE_LENGTH)
    throw refuse(where, `is longer than ${MAX_VALUE_LENGTH} characters`)
  if (!isStorableText(value)) throw refuse(where, 'holds control characters or broken text')
  return value
}

export function coerceBoolean(value: unknown, where: string): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true'
  throw refuse(where, `must be true or false, not ${describeValue(value)}`)
}

/** One value (an element, for a multi-valued attribute) made to fit `definition`. */
export function coerceSingle(
  definition: AttributeDefinition,
  value: unknown,
  where: string,
): unknown {
  switch (definition.type) {
    case 'string':
    case 'reference':
    case 'binary':
      if (typeof value !== 'string')
        throw refuse(where, `must be text, not ${describeValue(value)}`)
      return checkedText(value, where)
    case 'boolean':
      return coerceBoolean(value, where)
    case 'dateTime':
      if (typeof value !== 'string' || !parseDateTime(value))
        throw refuse(where, `must be a date and time such as "2026-01-31T12:00:00Z"`)
      return value
    case 'integer':
    case 'decimal':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw refuse(where, 'must be a number')
      if (definition.type === 'integer' && !Number.isInteger(value))
        throw refuse(where, 'must be an integer')
      return value
    case 'complex':
      return coerceComplex(definition, value, where)
  }
}

function coerceComplex(
  definition: AttributeDefinition,
  value: unknown,
  where: string,
): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw refuse(where, `must be an object, not ${describeValue(value)}`)
  const result: Record<string, unknown> = {}
  for (const [key, part] of Object.entries(value)) {
    const sub = findNamed(definition.subAttributes, key)
    if (!sub) {
      if (
        definition.discardedSubAttributes?.some((name) => name.toLowerCase() === key.toLowerCase())
      )
        continue
      throw badRequest('invalidValue', `"${where}" has no sub-attribute "${key}".`)
    }
    if (part === null || part === undefined) continue
    result[sub.name] = coerceSingle(sub, part, `${where}.${sub.name}`)
  }
  return result
}

/** A multi-valued attribute's values: an array (a lone value is taken as one element). */
export function coerceMany(
  definition: AttributeDefinition,
  value: unknown,
  where: string,
): unknown[] {
  const values = Array.isArray(value) ? (value as unknown[]) : [value]
  return values
    .filter((item) => item !== null && item !== undefined)
    .map((item) => coerceSingle(definition, item, where))
}

export const MAX_BODY_DEPTH = 8

/** Every string of the body (keys too), checked; iterative, so depth cannot overflow a stack. */
export function checkAllText(body: unknown): void {
  const stack: [unknown, number, string][] = [[body, 0, '']]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, depth, where] = next
    if (typeof value === 'string') checkedText(value, where || 'value')
    if (value === null || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH)
      throw badRequest('invalidSyntax', `The body nests deeper than ${MAX_BODY_DEPTH} levels.`)
    for (const [key, part] of Object.entries(value)) {
      const path = Array.isArray(value) ? where : where ? `${where}.${key}` : key
      checkedText(key, 'an attribute name')
      stack.push([part, depth + 1, path])
    }
  }
}
