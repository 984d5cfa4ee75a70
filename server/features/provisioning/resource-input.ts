import {
  isCoreSchema,
  isDiscardedExtension,
  resolvePath,
  type ResourceKind,
} from './attribute-schema'
import { checkAllText, coerceMany, coerceSingle } from './attribute-values'
import { parseAttributePath } from './filter-parser'
import { badRequest } from './scim-error'

/**
 * A POST or PUT body (or a PATCH's result) read against a resource type: every kept attribute
 * found case-insensitively and made to fit its type, under its schema name; the read-only ones
 * dropped (RFC 7644 §3.3 and §3.5.1: "SHALL be ignored"); the ones the RFC defines and Painel
 * does not keep dropped (Entra ID's `title`, Okta's `password`); anything else refused with
 * `invalidSyntax`, naming it (the body does not conform to the schema, RFC 7644 §3.12), so a
 * misspelt attribute is never silently lost. user-input.ts and group-input.ts take it from here.
 * Every text in the body, dropped ones included, is bounded and storable, and the body nests at
 * most MAX_BODY_DEPTH levels (checkAllText, attribute-values.ts).
 */

export type KeptAttributes = Record<string, unknown>

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export function keptAttributes(kind: ResourceKind, body: unknown): KeptAttributes {
  if (!isObject(body)) throw badRequest('invalidSyntax', `The ${kind.name} must be a JSON object.`)
  checkAllText(body)
  const schemasKey = Object.keys(body).find((key) => key.toLowerCase() === 'schemas')
  const schemas = schemasKey === undefined ? undefined : body[schemasKey]
  if (
    !Array.isArray(schemas) ||
    !schemas.some((schema) => typeof schema === 'string' && isCoreSchema(kind, schema))
  )
    throw badRequest('invalidSyntax', `The ${kind.name}'s "schemas" must list "${kind.core.id}".`)
  const kept: KeptAttributes = {}
  for (const [key, value] of Object.entries(body)) {
    if (key === schemasKey || isDiscardedExtension(kind, key)) continue
    const path = parseAttributePath(key)
    const resolution = path ? resolvePath(kind, path) : undefined
    if (!resolution || resolution.kind === 'unknown')
      throw badRequest('invalidSyntax', `"${key}" is not an attribute of ${kind.name}.`)
    if (resolution.kind === 'discarded') continue
    const { attribute, subAttribute } = resolution
    if (attribute.mutability === 'readOnly' || subAttribute?.mutability === 'readOnly') continue
    if (value === null || value === undefined) continue
    if (subAttribute) {
      // A URN-qualified or dotted key (`name.givenName`): rare in a body, read all the same.
      const parent = (kept[attribute.name] ??= {}) as Record<string, unknown>
      parent[subAttribute.name] = coerceSingle(
        subAttribute,
        value,
        `${attribute.name}.${subAttribute.name}`,
      )
      continue
    }
    kept[attribute.name] = attribute.multiValued
      ? coerceMany(attribute, value, attribute.name)
      : coerceSingle(attribute, value, attribute.name)
  }
  return kept
}

/** An externalId: the directory's own id (Entra's object id, Okta's user id), bounded. */
export const EXTERNAL_ID_MAX_LENGTH = 255

export function externalIdOf(kept: KeptAttributes): string | null {
  const value = kept.externalId
  if (typeof value !== 'string' || value === '') return null
  if (value.length > EXTERNAL_ID_MAX_LENGTH)
    throw badRequest(
      'invalidValue',
      `The externalId is longer than ${EXTERNAL_ID_MAX_LENGTH} characters.`,
    )
  return value
}
