import type { AttributePath } from './filter-syntax'

/**
 * How an attribute is described (RFC 7643 §2.2 and §7) and how a name the client wrote finds its
 * description: case-insensitively (RFC 7643 §2.1), bare or URN-qualified (RFC 7644 §3.10).
 *
 * Each resource schema lists what Painel keeps, with the RFC's characteristics; that list is what
 * GET /Schemas publishes (RFC 7643 §7: the attributes the provider supports). The rest of the
 * RFC's attributes are named in `discarded`: a request may carry them (Entra ID sends `title`,
 * `phoneNumbers`, `addresses` and the enterprise extension by default, Okta `locale` and
 * `password`) and they are accepted and dropped, never an error. A name in neither list is
 * unknown, and refused where the client asked for it by name (a filter, a PATCH path).
 */

export type AttributeType =
  'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'reference' | 'complex' | 'binary'

export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly'

export interface AttributeDefinition {
  name: string
  type: AttributeType
  multiValued: boolean
  description: string
  required: boolean
  caseExact: boolean
  mutability: Mutability
  returned: 'always' | 'never' | 'default' | 'request'
  uniqueness: 'none' | 'server' | 'global'
  canonicalValues?: string[]
  referenceTypes?: string[]
  subAttributes?: AttributeDefinition[]
  /** Sub-attributes the RFC defines that Painel does not keep (accepted and dropped). */
  discardedSubAttributes?: string[]
}

export interface ResourceSchema {
  id: string
  name: string
  description: string
  attributes: AttributeDefinition[]
  /** Attributes of this schema in the RFC that Painel does not keep. */
  discarded: string[]
}

/** A resource type (RFC 7643 §6): its endpoint, core schema and the extensions it accepts. */
export interface ResourceKind {
  name: 'User' | 'Group'
  endpoint: '/Users' | '/Groups'
  description: string
  core: ResourceSchema
  /** Extension schemas a request may carry, every attribute of them discarded. */
  discardedExtensions: string[]
}

type Characteristics = Partial<Omit<AttributeDefinition, 'name' | 'type' | 'description'>>

/** An attribute with the RFC's defaults (RFC 7643 §2.2): single, optional, readWrite, default. */
export function attribute(
  name: string,
  type: AttributeType,
  description: string,
  characteristics: Characteristics = {},
): AttributeDefinition {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...characteristics,
  }
}

/**
 * The common attributes of every resource (RFC 7643 §3.1). They belong to no schema's list
 * (the RFC's own Schemas examples leave them out) but are found as the core schema's.
 */
export const COMMON_ATTRIBUTES: AttributeDefinition[] = [
  // A UUID: Painel compares ids case aside (common/account-id.ts), so caseExact is false here.
  attribute('id', 'string', 'Unique identifier of the resource, issued by Painel (a UUID).', {
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  attribute('externalId', 'string', "The provisioning client's identifier of the resource.", {
    caseExact: true,
  }),
  attribute('meta', 'complex', 'Resource metadata.', {
    mutability: 'readOnly',
    subAttributes: [
      attribute('resourceType', 'string', 'The resource type.', {
        caseExact: true,
        mutability: 'readOnly',
      }),
      attribute('created', 'dateTime', 'When the resource was added.', { mutability: 'readOnly' }),
      attribute('lastModified', 'dateTime', 'When the resource last changed.', {
        mutability: 'readOnly',
      }),
      attribute('location', 'reference', 'The URI of the resource.', {
        caseExact: true,
        mutability: 'readOnly',
        referenceTypes: ['uri'],
      }),
      attribute('version', 'string', 'The version (a weak ETag) of the resource.', {
        caseExact: true,
        mutability: 'readOnly',
      }),
    ],
  }),
]

export const SCHEMAS_ATTRIBUTE = attribute('schemas', 'reference', 'Schema URIs.', {
  multiValued: true,
  caseExact: true,
  required: true,
  returned: 'always',
  referenceTypes: ['uri'],
})

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

export function findNamed<T extends { name: string }>(
  list: readonly T[] | undefined,
  name: string,
) {
  return list?.find((item) => same(item.name, name))
}

/** Where a name the client wrote leads. */
export type Resolution =
  | {
      kind: 'kept'
      attribute: AttributeDefinition
      /** Present when the path names a kept sub-attribute (`name.givenName`). */
      subAttribute?: AttributeDefinition
    }
  /** An attribute, sub-attribute or extension the RFC defines and Painel drops. */
  | { kind: 'discarded' }
  | { kind: 'unknown'; reason: string }

/** Whether a URI prefix names this resource's core schema (RFC 7644 §3.10). */
export function isCoreSchema(kind: ResourceKind, uri: string): boolean {
  return same(uri, kind.core.id)
}

export function isDiscardedExtension(kind: ResourceKind, uri: string): boolean {
  return kind.discardedExtensions.some((extension) => same(extension, uri))
}

/**
 * The attribute a path names on a resource of `kind`, or within `parent` (a value filter's
 * paths and a multi-valued complex attribute's elements name sub-attributes).
 */
export function resolvePath(
  kind: ResourceKind,
  path: AttributePath,
  parent?: AttributeDefinition,
): Resolution {
  if (parent) {
    if (path.schema !== undefined)
      return { kind: 'unknown', reason: `"${path.text}" cannot name a schema inside brackets` }
    return resolveWithin(parent, path.attribute, path.subAttribute, path.text)
  }
  if (path.schema !== undefined && !isCoreSchema(kind, path.schema)) {
    if (isDiscardedExtension(kind, path.schema)) return { kind: 'discarded' }
    return { kind: 'unknown', reason: `"${path.schema}" is not a schema of ${kind.name}` }
  }
  const top =
    findNamed(kind.core.attributes, path.attribute) ??
    findNamed(COMMON_ATTRIBUTES, path.attribute) ??
    (same(path.attribute, 'schemas') ? SCHEMAS_ATTRIBUTE : undefined)
  if (!top) {
    if (kind.core.discarded.some((name) => same(name, path.attribute))) return { kind: 'discarded' }
    return { kind: 'unknown', reason: `"${path.text}" is not an attribute of ${kind.name}` }
  }
  if (path.subAttribute === undefined) return { kind: 'kept', attribute: top }
  return resolveWithin(top, path.subAttribute, undefined, path.text, top)
}

function resolveWithin(
  parent: AttributeDefinition,
  name: string,
  deeper: string | undefined,
  text: string,
  top?: AttributeDefinition,
): Resolution {
  if (deeper !== undefined || parent.type !== 'complex')
    return { kind: 'unknown', reason: `"${text}" names a sub-attribute of a simple attribute` }
  const sub = findNamed(parent.subAttributes, name)
  if (sub)
    return top
      ? { kind: 'kept', attribute: top, subAttribute: sub }
      : { kind: 'kept', attribute: sub }
  if (parent.discardedSubAttributes?.some((discarded) => same(discarded, name)))
    return { kind: 'discarded' }
  return { kind: 'unknown', reason: `"${text}" is not a sub-attribute of "${parent.name}"` }
}

/**
 * Case folding for `caseExact: false` (RFC 7643 §2.2), the same in memory and in SQL on both
 * engines (filter-to-sql.ts): ASCII letters only. SQLite's lower() folds nothing else, and a
 * wider fold would let a look-alike match (toLowerCase folds U+212A KELVIN SIGN into "k": see
 * canonicalEmail in common/account-rules.ts); "ÉRICA" and "érica" stay two values.
 */
export function foldCase(value: string): string {
  return value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}
