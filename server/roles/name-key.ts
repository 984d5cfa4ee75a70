/**
 * A role's or a team's name folded for uniqueness: "Suporte", "suporte" and " SUPORTE " are one
 * name. Folded here rather than by lower() in SQL, which on SQLite folds ASCII only ("ÁREA" and
 * "área" would be two names there and one on PostgreSQL).
 */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('pt-BR')
}
