/**
 * A role's or a team's name folded for uniqueness: "Suporte", "suporte" and " SUPORTE " are one
 * name. Folded here rather than by lower() in SQL, which on SQLite folds ASCII only ("ÁREA" and
 * "área" would be two names there and one on PostgreSQL).
 */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('pt-BR')
}

/**
 * A write that may break the unique name_key index (a role's or a team's name), with that
 * violation, on either engine, thrown as `taken` (409 role_name_taken, team_name_taken).
 */
export async function unlessNameTaken<T>(taken: () => Error, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (caught) {
    const text = String((caught as Error)?.message ?? '')
    if (/unique|duplicate/i.test(text) && /name_key/i.test(text)) throw taken()
    throw caught
  }
}
