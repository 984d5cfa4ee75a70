/**
 * A stored value (localStorage, sessionStorage) read as a JSON object: null when it is missing,
 * broken JSON, an array or a bare value. The reader then checks the fields it needs.
 */
export function parseJsonObject(raw: string | null): Record<string, unknown> | null {
  if (raw === null) return null
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
