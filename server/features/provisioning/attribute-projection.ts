import { resolvePath, type ResourceKind } from './attribute-schema'
import { parseAttributePath } from './filter-parser'
import type { ScimResource } from './user-resource'

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5 and §3.9) applied to a resource's
 * full representation: `attributes` keeps only the named ones, `excludedAttributes` drops the
 * named ones (Entra ID reads Groups with `excludedAttributes=members`). `schemas` and `id` are
 * always returned (RFC 7643 §3.1 and §7: returned "always"); a sub-attribute keeps or drops
 * that part of a complex attribute (`name.givenName`, `members.display`).
 *
 * Choices: names are matched case-insensitively and may be URN-qualified; a name that is not an
 * attribute Painel keeps is skipped (asking for `title` gets no title rather than an error: the
 * answer is smaller, never wrong); with both parameters, `attributes` chooses and
 * `excludedAttributes` then drops from that.
 */

export interface Projection {
  attributes?: string
  excludedAttributes?: string
}

const ALWAYS = new Set(['schemas', 'id'])

/** The parameter's names as [attribute, sub-attribute?] in their schema spelling. */
function names(kind: ResourceKind, list: string | undefined): [string, string?][] {
  if (!list) return []
  return list.split(',').flatMap((text): [string, string?][] => {
    const path = parseAttributePath(text.trim())
    const resolution = path ? resolvePath(kind, path) : undefined
    if (resolution?.kind !== 'kept') return []
    return [[resolution.attribute.name, resolution.subAttribute?.name]]
  })
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The part of a complex (or multi-valued complex) value holding only `sub`. */
function only(value: unknown, sub: string): unknown {
  if (Array.isArray(value))
    return value
      .map((element) => only(element, sub))
      .filter((element) => isObject(element) && Object.keys(element).length > 0)
  if (!isObject(value) || !(sub in value)) return undefined
  return { [sub]: value[sub] }
}

function without(value: unknown, sub: string): unknown {
  if (Array.isArray(value)) return value.map((element) => without(element, sub))
  if (!isObject(value)) return value
  const rest = { ...value }
  delete rest[sub]
  return rest
}

/** Merges a partial complex value into what is already chosen. */
function merged(chosen: unknown, part: unknown): unknown {
  if (Array.isArray(chosen) && Array.isArray(part))
    return chosen.map((element, index) => ({ ...(element as Json), ...(part[index] as Json) }))
  if (isObject(chosen) && isObject(part)) return { ...chosen, ...part }
  return part
}

export function projectResource(
  kind: ResourceKind,
  resource: ScimResource,
  projection: Projection,
): ScimResource {
  let result: Json = resource
  const wanted = names(kind, projection.attributes)
  if (projection.attributes !== undefined && projection.attributes.trim() !== '') {
    result = {}
    for (const key of Object.keys(resource)) if (ALWAYS.has(key)) result[key] = resource[key]
    const whole = new Set(wanted.filter(([, sub]) => sub === undefined).map(([name]) => name))
    for (const [name, sub] of wanted) {
      if (!(name in resource) || ALWAYS.has(name)) continue
      if (sub === undefined) result[name] = resource[name]
      else if (!whole.has(name)) {
        const part = only(resource[name], sub)
        if (part !== undefined) result[name] = name in result ? merged(result[name], part) : part
      }
    }
  }
  for (const [name, sub] of names(kind, projection.excludedAttributes)) {
    if (ALWAYS.has(name) || !(name in result)) continue
    if (result === resource) result = { ...resource }
    if (sub === undefined) delete result[name]
    else result[name] = without(result[name], sub)
  }
  return result as ScimResource
}
