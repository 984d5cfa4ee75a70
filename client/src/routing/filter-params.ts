import { useSearchParams } from 'react-router-dom'

/** A list screen's filters to change: a value sets one, an empty or missing value removes it. */
export type FilterChanges = Record<string, string | undefined>

/** Where a list is: its page's number, or a cursor of the page after or before. */
const POSITION = ['page', 'after', 'before']

/**
 * The URL's query after some filters change. Any change but the position's (page, after,
 * before) goes back to page 1: the page a person was on means nothing in a different list.
 */
export function withFilterChanges(
  params: URLSearchParams,
  changes: FilterChanges,
): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value)
    else next.delete(name)
  }
  if (!POSITION.some((name) => name in changes)) for (const name of POSITION) next.delete(name)
  return next
}

/**
 * A list screen's filters, kept in the URL (`#/equipe?status=pending&q=ana&page=2`): shareable,
 * kept on reload, and the browser's back button undoes a change.
 */
export function useFilterParams(): {
  params: URLSearchParams
  update: (changes: FilterChanges) => void
  clear: () => void
} {
  const [params, setParams] = useSearchParams()
  return {
    params,
    // From the URL as it is when the change lands: a search applied after a pause must not undo a
    // select changed meanwhile.
    update: (changes) => setParams((current) => withFilterChanges(current, changes)),
    clear: () => setParams(new URLSearchParams()),
  }
}
