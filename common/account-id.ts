/**
 * Account ids are UUIDs in their plain form (`8-4-4-4-12` hex digits). Any other spelling that a
 * UUID parser or a schema's `format: uuid` would take (`urn:uuid:…`, braces) is refused, and the
 * case is folded before any comparison: `ABC…` and `abc…` are the same account.
 */
const PLAIN_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The id in lower case, or null when it is not a plain UUID. */
export function normalizeAccountId(raw: string): string | null {
  return PLAIN_UUID.test(raw) ? raw.toLowerCase() : null
}
