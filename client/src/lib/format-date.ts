/**
 * The one way the panel writes a day: "22 de nov. de 2026". Every screen uses it, so a date reads
 * the same in Equipe and in Minha conta; the month in words cannot be mistaken for the day.
 */
const DAY = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'medium' })

export function formatDate(iso: string): string {
  return DAY.format(new Date(iso))
}
