/**
 * The parsed form of a SCIM filter (RFC 7644 §3.4.2.2, Figure 1) and of a PATCH path
 * (RFC 7644 §3.5.2, Figure 3), as filter-parser.ts produces them. The names are the RFC's.
 */

export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le'

export const COMPARE_OPERATORS: readonly CompareOperator[] = [
  'eq',
  'ne',
  'co',
  'sw',
  'ew',
  'gt',
  'ge',
  'lt',
  'le',
]

/** A comparison value: JSON's false, null, true, number or string (compValue). */
export type Literal = string | number | boolean | null

/**
 * An attribute as written: `[URI ":"] ATTRNAME *1subAttr`. Names keep the client's spelling
 * (they are case-insensitive: attribute-schema.ts resolves them); `schema` is the URI prefix,
 * if any, as written.
 */
export interface AttributePath {
  schema?: string
  attribute: string
  subAttribute?: string
  /** The path as the client wrote it, for error details. */
  text: string
}

export type Filter =
  | { kind: 'compare'; path: AttributePath; operator: CompareOperator; value: Literal }
  | { kind: 'present'; path: AttributePath }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  /**
   * `emails[type eq "work"]`: the inner filter's paths name sub-attributes of `path`; it holds
   * no value path of its own.
   */
  | { kind: 'valuePath'; path: AttributePath; filter: Filter }

/** A PATCH operation's `path`: `attrPath / valuePath [subAttr]`. */
export interface PatchPath {
  path: AttributePath
  /** The value selection filter in brackets, when there is one. */
  filter?: Filter
  /** `.value` after the brackets: `emails[type eq "work"].value`. */
  subAttribute?: string
  text: string
}
