/**
 * Dates and times in mails, in Brasília's time: the server does not know the reader's zone, and
 * most staff are there. The formatters are made at the first mail, not at the server's start: a
 * formatter with a time zone reads ICU's data (6 MB of Node's binary) into the server's memory
 * (docs/performance.md, "No ICU data read at start").
 */
let dateTime: Intl.DateTimeFormat | undefined
let date: Intl.DateTimeFormat | undefined

/** "28/11/2026, 14:03". */
export function brasiliaDateTime(at: Date): string {
  dateTime ??= new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    dateStyle: 'short',
    timeStyle: 'short',
  })
  return dateTime.format(at)
}

/** "28/11/2026". */
export function brasiliaDate(at: Date): string {
  date ??= new Intl.DateTimeFormat('pt-BR', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'America/Sao_Paulo',
  })
  return date.format(at)
}
