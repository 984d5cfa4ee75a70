import {
  findNamed,
  isDiscardedExtension,
  resolvePath,
  SCHEMAS_ATTRIBUTE,
  type AttributeDefinition,
  type ResourceKind,
} from './attribute-schema'
import { checkAllText, coerceMany, coerceSingle, describeValue } from './attribute-values'
import { compileFilter, property, type Predicate } from './filter-evaluator'
import { parseAttributePath, parsePatchPath } from './filter-parser'
import type { Filter } from './filter-syntax'
import { GROUP } from './group-schema'
import { badRequest, ScimError } from './scim-error'
import type { ScimResource } from './user-resource'

/**
 * PATCH (RFC 7644 §3.5.2) applied to a resource's representation: the operations of one request
 * in order, on a copy, all or nothing (the first refusal throws and the caller writes nothing).
 * The caller then reads the result as it reads a PUT body (user-input.ts, group-input.ts), so a
 * PATCH can never store what a PUT could not.
 *
 * What real clients send, and is taken:
 * - `op` in any case ("Add", "Replace", "Remove": Entra ID).
 * - add/replace without `path`, with an object whose keys are attribute paths too
 *   (`"name.givenName"`, URN-qualified ones, an extension's URN with an object): Entra ID and
 *   Okta (`{"op":"replace","value":{"active":false}}`). In such an object, read-only attributes
 *   (id, meta, groups, schemas) are ignored, as a PUT ignores them (RFC 7644 §3.5.1): Okta sends
 *   the Group's `id` along with its new displayName.
 * - `"False"`/`"True"` for booleans (attribute-values.ts).
 * - `emails[type eq "work"].value`; `members[value eq "…"]` for a removal; a removal from
 *   `members` by value (`{"op":"Remove","path":"members","value":[{"value":"…"}]}`, Entra ID's
 *   documented form): the listed members are removed, not all of them.
 * - Attributes and extensions the RFC defines and Painel does not keep (`title`,
 *   `phoneNumbers[type eq "work"].value`, the enterprise extension): accepted, nothing happens.
 *
 * Refusals (RFC 7644 §3.5.2 and §3.12), each a ScimError with a detail that names the operation:
 * - invalidSyntax: no PatchOp schema, no Operations, an unknown op, more than
 *   MAX_PATCH_OPERATIONS operations;
 * - invalidPath: a malformed path, an attribute no schema defines;
 * - noTarget: a remove without path; a value filter of replace or remove that selects nothing
 *   ("This occurs when the specified path value contains a filter that yields no match");
 * - mutability: a path to a read-only attribute (id, meta, groups of a User), a change of an
 *   immutable sub-attribute that has a value (members.value);
 * - invalidValue: a value of the wrong type, too long, or not an object where one is needed.
 *
 * Choices where the RFC leaves room:
 * - add with a value filter that selects nothing creates the element from the filter's `eq`
 *   terms (`emails[type eq "work"].value` makes a work e-mail): what Entra ID expects, and what
 *   scim-patch does; a filter of other shapes is noTarget.
 * - remove of an attribute that has no value is no change, not noTarget (the wanted end state
 *   holds); noTarget is kept for filters, as the RFC words it.
 * - add to a multi-valued attribute skips a value already there (RFC: "no changes SHOULD be
 *   made"); elements with a `value` are the same element when their values are equal.
 * - One `primary: true` at most (RFC 7643 §2.4): the element given last keeps it.
 */

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const MAX_PATCH_OPERATIONS = 1000

type Op = 'add' | 'remove' | 'replace'
type Json = Record<string, unknown>

interface Operation {
  op: Op
  path?: string
  value?: unknown
  /** "operation 2 (replace emails[…])", for details. */
  label: string
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The operations of a PATCH body, checked for shape (RFC 7644 §3.5.2). */
export function patchOperations(body: unknown): Operation[] {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The PATCH body must be a JSON object.')
  // Every text, even one for an attribute Painel drops, is bounded and storable.
  checkAllText(body)
  const schemas = property(body, 'schemas')
  if (
    !Array.isArray(schemas) ||
    !schemas.some(
      (schema) =>
        typeof schema === 'string' && schema.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase(),
    )
  )
    throw badRequest('invalidSyntax', `The PATCH body's "schemas" must list "${PATCH_OP_SCHEMA}".`)
  const operations = property(body, 'Operations')
  if (!Array.isArray(operations) || operations.length === 0)
    throw badRequest('invalidSyntax', 'The PATCH body must have a non-empty "Operations" array.')
  if (operations.length > MAX_PATCH_OPERATIONS)
    throw badRequest(
      'invalidSyntax',
      `A PATCH may hold at most ${MAX_PATCH_OPERATIONS} operations.`,
    )
  return operations.map((raw, index): Operation => {
    const where = `Operation ${index + 1}`
    if (!isObject(raw)) throw badRequest('invalidSyntax', `${where} must be a JSON object.`)
    const op = property(raw, 'op')
    const name = typeof op === 'string' ? op.toLowerCase() : ''
    if (name !== 'add' && name !== 'remove' && name !== 'replace')
      throw badRequest(
        'invalidSyntax',
        `${where} has op ${describeValue(op)}: it must be add, remove or replace.`,
      )
    const path = property(raw, 'path')
    if (path !== undefined && typeof path !== 'string')
      throw badRequest('invalidPath', `${where} has a path that is not text.`)
    const hasValue = Object.keys(raw).some((key) => key.toLowerCase() === 'value')
    if (name !== 'remove' && !hasValue)
      throw badRequest('invalidValue', `${where} (${name}) has no "value".`)
    if (name === 'remove' && path === undefined)
      throw badRequest('noTarget', `${where} (remove) has no "path": a remove needs one.`)
    return {
      op: name,
      ...(path !== undefined ? { path } : {}),
      ...(hasValue ? { value: property(raw, 'value') } : {}),
      label: `${where} (${name}${path !== undefined ? ` ${path}` : ''})`,
    }
  })
}

/** The resource after the operations of `body`; `resource` itself is left as it was. */
export function applyPatch(
  kind: ResourceKind,
  resource: ScimResource,
  body: unknown,
): ScimResource {
  const operations = patchOperations(body)
  const result = structuredClone(resource)
  for (const operation of operations) new OperationRun(kind, result, operation).run()
  return result
}

/** A multi-valued attribute's elements are one element when their `value`s are equal. */
function sameElement(definition: AttributeDefinition, a: unknown, b: unknown): boolean {
  const valueSub = findNamed(definition.subAttributes, 'value')
  if (valueSub && isObject(a) && isObject(b) && a.value !== undefined && b.value !== undefined) {
    return valueSub.caseExact || typeof a.value !== 'string' || typeof b.value !== 'string'
      ? a.value === b.value
      : a.value.toLowerCase() === b.value.toLowerCase()
  }
  return JSON.stringify(a) === JSON.stringify(b)
}

class OperationRun {
  constructor(
    private readonly kind: ResourceKind,
    private readonly resource: Json,
    private readonly operation: Operation,
  ) {}

  private fail(
    scimType: 'invalidPath' | 'noTarget' | 'mutability' | 'invalidValue',
    why: string,
  ): ScimError {
    return badRequest(scimType, `${this.operation.label}: ${why}.`)
  }

  run(): void {
    const { op, path, value } = this.operation
    if (path !== undefined) return this.atPath(path, value)
    // add/replace without a path: each key of the object is a path of its own (§3.5.2.1/3).
    if (!isObject(value))
      throw this.fail('invalidValue', 'without a "path", the value must be an object of attributes')
    for (const [key, part] of Object.entries(value)) this.atKey(op, key, part)
  }

  private atKey(op: Op, key: string, part: unknown): void {
    if (isDiscardedExtension(this.kind, key)) return
    const parsed = parseAttributePath(key)
    if (!parsed) throw this.fail('invalidPath', `"${key}" is not an attribute`)
    const resolution = resolvePath(this.kind, parsed)
    if (resolution.kind === 'unknown') throw this.fail('invalidPath', resolution.reason)
    if (resolution.kind === 'discarded') return
    const target = resolution.subAttribute ?? resolution.attribute
    if (
      resolution.attribute.mutability === 'readOnly' ||
      target.mutability === 'readOnly' ||
      resolution.attribute === SCHEMAS_ATTRIBUTE
    )
      return
    this.change(op, resolution.attribute, resolution.subAttribute, undefined, part)
  }

  private atPath(text: string, value: unknown): void {
    const parsed = parsePatchPath(text)
    const resolution = resolvePath(this.kind, parsed.path)
    if (resolution.kind === 'unknown') throw this.fail('invalidPath', resolution.reason)
    if (resolution.kind === 'discarded') return
    const { attribute } = resolution
    let sub = resolution.subAttribute
    if (parsed.filter) {
      if (attribute.type !== 'complex')
        throw this.fail('invalidPath', `"${attribute.name}" has no values to select with brackets`)
      if (parsed.subAttribute !== undefined) {
        const found = resolvePath(
          this.kind,
          { attribute: parsed.subAttribute, text: parsed.subAttribute },
          attribute,
        )
        if (found.kind === 'unknown') throw this.fail('invalidPath', found.reason)
        if (found.kind === 'discarded') return
        sub = found.attribute
      }
    }
    if (
      attribute === SCHEMAS_ATTRIBUTE ||
      attribute.mutability === 'readOnly' ||
      sub?.mutability === 'readOnly'
    )
      throw this.fail(
        'mutability',
        `"${sub ? `${attribute.name}.${sub.name}` : attribute.name}" is read-only`,
      )
    this.change(this.operation.op, attribute, sub, parsed.filter, value)
  }

  private matcher(attribute: AttributeDefinition, filter: Filter): Predicate {
    try {
      return compileFilter(this.kind, filter, attribute)
    } catch (error) {
      if (error instanceof ScimError)
        throw this.fail('invalidPath', error.detail.replace(/\.$/, ''))
      throw error
    }
  }

  private where(attribute: AttributeDefinition, sub?: AttributeDefinition): string {
    return sub ? `${attribute.name}.${sub.name}` : attribute.name
  }

  /** One change at attribute (and sub-attribute), within the elements `filter` selects. */
  private change(
    op: Op,
    attribute: AttributeDefinition,
    sub: AttributeDefinition | undefined,
    filter: Filter | undefined,
    value: unknown,
  ): void {
    const key = this.canonicalKey(attribute.name)
    if (filter || (attribute.multiValued && sub)) {
      return this.changeElements(op, attribute, sub, filter, value)
    }
    const current = this.resource[key]
    if (op === 'remove') {
      if (attribute.multiValued && value !== undefined) return this.removeListed(attribute, value)
      if (sub) {
        if (isObject(current)) {
          this.checkImmutable(sub, current[sub.name], undefined)
          delete current[sub.name]
          if (Object.keys(current).length === 0) delete this.resource[key]
        }
        return
      }
      this.checkImmutable(attribute, current, undefined)
      delete this.resource[key]
      return
    }
    if (value === null) {
      // null is "unassigned" (RFC 7643 §2.5): the same as a remove.
      if (sub && isObject(current)) delete current[sub.name]
      else if (!sub) delete this.resource[key]
      return
    }
    if (sub) {
      const object = isObject(current) ? current : (this.resource[key] = {})
      const next = coerceSingle(sub, value, this.where(attribute, sub))
      this.checkImmutable(sub, object[sub.name], next)
      object[sub.name] = next
      return
    }
    if (attribute.multiValued) {
      const incoming = coerceMany(attribute, value, attribute.name)
      const existing: unknown[] = Array.isArray(current) ? current : []
      if (op === 'replace') {
        this.setElements(key, attribute, incoming, incoming)
        return
      }
      const added = incoming.filter(
        (item, index) =>
          !existing.some((old) => sameElement(attribute, old, item)) &&
          !incoming.slice(0, index).some((earlier) => sameElement(attribute, earlier, item)),
      )
      this.setElements(key, attribute, [...existing, ...added], added)
      return
    }
    const next = coerceSingle(attribute, value, attribute.name)
    if (attribute.type === 'complex' && isObject(current)) {
      // A complex value's sub-attributes replace or join the old ones; the rest stay (§3.5.2.3).
      for (const [name, part] of Object.entries(next as Json)) {
        this.checkImmutable(findNamed(attribute.subAttributes, name)!, current[name], part)
        current[name] = part
      }
      return
    }
    this.checkImmutable(attribute, current, next)
    this.resource[key] = next
  }

  /** Changes within the elements of a multi-valued (or complex) attribute a filter selects. */
  private changeElements(
    op: Op,
    attribute: AttributeDefinition,
    sub: AttributeDefinition | undefined,
    filter: Filter | undefined,
    value: unknown,
  ): void {
    const key = this.canonicalKey(attribute.name)
    const current = this.resource[key]
    const elements: unknown[] = Array.isArray(current)
      ? current
      : current === undefined
        ? []
        : [current]
    const matches = filter ? this.matcher(attribute, filter) : () => true
    const selected = elements.filter((element) => matches(element))
    if (op === 'remove') {
      if (filter && selected.length === 0)
        throw this.fail('noTarget', 'the filter selects no value')
      if (sub) {
        for (const element of selected) {
          if (!isObject(element)) continue
          this.checkImmutable(sub, element[sub.name], undefined)
          delete element[sub.name]
        }
        return
      }
      for (const element of selected) this.checkImmutable(attribute, element, undefined)
      this.setElements(
        key,
        attribute,
        elements.filter((element) => !selected.includes(element)),
        [],
      )
      return
    }
    if (selected.length === 0) {
      if (op === 'replace' && filter) throw this.fail('noTarget', 'the filter selects no value')
      const seed = filter ? equalities(filter) : {}
      if (!seed)
        throw this.fail(
          'noTarget',
          'the filter selects no value, and is not one an element can be made from',
        )
      const made = sub
        ? { ...seed, [sub.name]: value }
        : isObject(value)
          ? { ...seed, ...value }
          : undefined
      if (!made) throw this.fail('invalidValue', 'the value must be an object of sub-attributes')
      const element = coerceSingle(attribute, made, attribute.name)
      this.setElements(key, attribute, [...elements, element], [element])
      return
    }
    for (const element of selected) {
      if (!isObject(element)) continue
      if (sub) {
        const next = coerceSingle(sub, value, this.where(attribute, sub))
        this.checkImmutable(sub, element[sub.name], next)
        element[sub.name] = next
        continue
      }
      const next = coerceSingle(attribute, value, attribute.name) as Json
      for (const [name, part] of Object.entries(next)) {
        this.checkImmutable(findNamed(attribute.subAttributes, name)!, element[name], part)
        element[name] = part
      }
    }
    this.setElements(key, attribute, elements, selected)
  }

  /** Entra ID's removal of listed members: `{"op":"Remove","path":"members","value":[…]}`. */
  private removeListed(attribute: AttributeDefinition, value: unknown): void {
    const key = this.canonicalKey(attribute.name)
    const listed = coerceMany(attribute, value, attribute.name)
    const elements = Array.isArray(this.resource[key]) ? (this.resource[key] as unknown[]) : []
    const kept = elements.filter(
      (element) => !listed.some((item) => sameElement(attribute, element, item)),
    )
    if (kept.length === elements.length)
      throw this.fail('noTarget', 'none of the listed values is there')
    this.setElements(key, attribute, kept, [])
  }

  /** Writes a multi-valued attribute's elements, keeping one primary and no empty list. */
  private setElements(
    key: string,
    attribute: AttributeDefinition,
    elements: unknown[],
    given: unknown[],
  ): void {
    if (!attribute.multiValued) {
      if (elements[0] === undefined) delete this.resource[key]
      else this.resource[key] = elements[0]
      return
    }
    if (findNamed(attribute.subAttributes, 'primary')) {
      const primary =
        [...given].reverse().find((element) => isObject(element) && element.primary === true) ??
        elements.find((element) => isObject(element) && element.primary === true)
      for (const element of elements)
        if (isObject(element) && element !== primary && element.primary === true)
          element.primary = false
    }
    if (elements.length === 0) delete this.resource[key]
    else this.resource[key] = elements
  }

  /** An immutable attribute with a value may not change (RFC 7643 §2.2, RFC 7644 §3.5.2). */
  private checkImmutable(definition: AttributeDefinition, before: unknown, after: unknown): void {
    if (definition.mutability !== 'immutable' || before === undefined || before === null) return
    if (JSON.stringify(before) === JSON.stringify(after)) return
    throw this.fail('mutability', `"${definition.name}" is immutable and already has a value`)
  }

  /** The key the resource holds the attribute under: its schema name (our representations). */
  private canonicalKey(name: string): string {
    const existing = Object.keys(this.resource).find(
      (key) => key.toLowerCase() === name.toLowerCase(),
    )
    if (existing !== undefined && existing !== name) {
      this.resource[name] = this.resource[existing]
      delete this.resource[existing]
    }
    return name
  }
}

/**
 * The sub-attribute values a filter of `eq` terms joined by `and` pins down (`type eq "work"`),
 * or null for a filter of any other shape.
 */
function equalities(filter: Filter): Json | null {
  if (
    filter.kind === 'compare' &&
    filter.operator === 'eq' &&
    filter.path.subAttribute === undefined
  )
    return { [filter.path.attribute]: filter.value }
  if (filter.kind === 'and') {
    const [left, right] = [equalities(filter.left), equalities(filter.right)]
    return left && right ? { ...left, ...right } : null
  }
  return null
}

/**
 * The members a Group's PATCH can change, when they are all named in it: added by value, removed
 * by value (Entra ID's form) or by `members[value eq "…"]`. Then the PATCH gives the same result
 * on the Group with only those of its members as on the whole Group (applyPatch adds, removes and
 * refuses an element by its value alone), and a change to a Group of 12,000 need not read them
 * all. Null when an operation can reach members it does not name (replace them, remove them all,
 * a filter of another shape) or cannot be read: the PATCH is then applied to the whole Group,
 * which also gives its refusal. The ids as the PATCH wrote them; ones that are no UUID stay, and
 * find no member.
 */
export function membersNamedByPatch(body: unknown): string[] | null {
  let operations: Operation[]
  try {
    operations = patchOperations(body)
  } catch {
    return null
  }
  const named: string[] = []
  const isMembers = (attribute: AttributeDefinition) => attribute.name === 'members'
  for (const { op, path, value } of operations) {
    if (path === undefined) {
      // add/replace of an object of attributes: fine as long as none of its keys is a member's.
      if (!isObject(value)) return null
      for (const key of Object.keys(value)) {
        const parsed = parseAttributePath(key)
        const resolution = parsed ? resolvePath(GROUP, parsed) : null
        if (!resolution || resolution.kind === 'unknown') return null
        if (resolution.kind === 'kept' && isMembers(resolution.attribute)) return null
      }
      continue
    }
    let parsed: ReturnType<typeof parsePatchPath>
    try {
      parsed = parsePatchPath(path)
    } catch {
      return null
    }
    const resolution = resolvePath(GROUP, parsed.path)
    if (resolution.kind === 'unknown') return null
    if (resolution.kind === 'discarded' || !isMembers(resolution.attribute)) continue
    if (resolution.subAttribute || parsed.subAttribute !== undefined) return null
    if (parsed.filter) {
      const { filter } = parsed
      if (
        op !== 'remove' ||
        filter.kind !== 'compare' ||
        filter.operator !== 'eq' ||
        filter.path.attribute.toLowerCase() !== 'value' ||
        filter.path.subAttribute !== undefined ||
        typeof filter.value !== 'string'
      )
        return null
      named.push(filter.value)
      continue
    }
    // add, or Entra's remove with a list: each element's value; a bare remove takes them all.
    if (op === 'replace' || value === undefined) return null
    for (const element of Array.isArray(value) ? value : [value]) {
      const id = isObject(element) ? property(element, 'value') : undefined
      if (typeof id !== 'string') return null
      named.push(id)
    }
  }
  return named
}
