import { createHash } from 'node:crypto'

/**
 * A User's meta.version (RFC 7644 §3.14): a weak ETag made from the representation itself, not
 * from updated_at nor a counter. A timestamp repeats when two writes share a millisecond (or a
 * test's clock stands still), and a counter needs every write path of Painel (an admin's edit, a
 * name change, a team renamed under a person) to remember to bump it; a digest of what the
 * resource shows changes exactly when that changes, so an If-Match made from an older answer
 * never passes. Weak, because the same resource is shown in more than one form (attributes,
 * excludedAttributes). A Group's is a stamp triggers keep instead (group-resource.ts): a digest
 * of its thousands of members held the event loop for tens of milliseconds at every read.
 */
export function resourceVersion(resource: object): string {
  const { meta, ...rest } = resource as { meta?: Record<string, unknown> }
  // The version and location do not describe the resource: the same one is at another base URL.
  const stableMeta = { ...meta }
  delete stableMeta.version
  delete stableMeta.location
  const digest = createHash('sha256')
    .update(stableJson({ ...rest, meta: stableMeta }))
    .digest('base64url')
  return `W/"${digest.slice(0, 27)}"`
}

/** JSON with object keys sorted, so that equal contents give equal text. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, part]) => part !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, part]) => `${JSON.stringify(key)}:${stableJson(part)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * Whether an If-Match header (RFC 7232 §3.1; RFC 7644 §3.14) lets a change go ahead: `*`, or one
 * of its tags equal to `version`. Weak tags compare by their opaque part (a strong
 * comparison cannot hold for a weak tag, and SCIM clients send back the W/ form they received).
 */
export function ifMatchAllows(header: string | undefined, version: string): boolean {
  if (header === undefined) return true
  const tags = header.split(',').map((tag) => tag.trim())
  const opaque = (tag: string) => tag.replace(/^W\//, '')
  return tags.some((tag) => tag === '*' || opaque(tag) === opaque(version))
}
