import { nameSortKey } from '../../common/name-order'

/**
 * The columns an account's name is written to: the name, and its sort key (common/name-order.ts),
 * which "Nome (A–Z)" orders by on both engines. Every write of a name goes through here, so the
 * key never falls behind the name.
 */
export function nameColumns(name: string): { name: string; name_sort_key: string } {
  return { name, name_sort_key: nameSortKey(name) }
}
