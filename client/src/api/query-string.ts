/** `?a=1&b=2` of the values given; empty ones are left out. */
export function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value)
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** The `signal` option of a request, when there is one. */
export const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {})
