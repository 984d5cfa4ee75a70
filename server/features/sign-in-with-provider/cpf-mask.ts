/**
 * gov.br's `sub` is the person's CPF. It is stored as the link's subject (it is what identifies
 * them), but shown only masked, the way gov.br's own services show it (`***.456.789-**`: the
 * middle six digits), and never written to a log, the audit log's details or a CSV.
 */
export function maskCpf(subject: string): string {
  const digits = subject.replace(/[.\-\s]/g, '')
  if (!/^\d{11}$/.test(digits)) return '***.***.***-**'
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`
}

/** A provider's subject as it may be shown or logged: masked when it is a CPF. */
export function shownSubject(subject: string, subjectIsCpf: boolean): string {
  return subjectIsCpf ? maskCpf(subject) : subject
}
