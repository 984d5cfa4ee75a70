/**
 * Whether an If-None-Match header names the current ETag, with the weak comparison RFC 9110
 * (13.1.2) prescribes for it: `W/` is ignored on both sides, `*` matches any current file, and a
 * list matches when one of its tags does. A malformed header simply does not match, so the full
 * answer is sent.
 */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const current = opaqueTag(etag)
  for (const candidate of ifNoneMatch.split(',')) {
    const trimmed = candidate.trim()
    if (trimmed === '*' || opaqueTag(trimmed) === current) return true
  }
  return false
}

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag
}
