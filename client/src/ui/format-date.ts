/**
 * The one way the panel writes a day: "22 de nov. de 2026". Every screen uses it, so a date reads
 * the same in Equipe and in Minha conta; the month in words cannot be mistaken for the day.
 * A moment adds the time in the browser's time zone: "22 de nov. de 2026 17:05".
 */
const DAY = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'medium' })
const MOMENT = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'medium', timeStyle: 'short' })

export function formatDate(iso: string): string {
  return DAY.format(new Date(iso))
}

export function formatDateTime(iso: string): string {
  return MOMENT.format(new Date(iso))
}

/** A UTC day (YYYY-MM-DD) as 22/11, for the chart's axis. */
export const formatDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`
