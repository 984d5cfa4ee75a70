/** The one way the panel writes a moment: 22/11/2026 17:05, in the browser's time zone. */
const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' })
const dateOnly = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short' })

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso))
export const formatDate = (iso: string) => dateOnly.format(new Date(iso))
/** A UTC day (YYYY-MM-DD) as 22/11. */
export const formatDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`
