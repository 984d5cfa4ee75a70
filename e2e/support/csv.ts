/**
 * One line of the audit CSV (server/features/audit/audit-csv.ts) back into its fields: `;`
 * between them, a field in double quotes when it holds `;`, `,`, a quote or a line end, a quote
 * inside written twice. Enough for a line the test has already split at CRLF.
 */
export function csvFields(line: string): string[] {
  const fields: string[] = []
  let at = 0
  for (;;) {
    if (line[at] === '"') {
      let value = ''
      let from = at + 1
      for (;;) {
        const quote = line.indexOf('"', from)
        if (quote === -1) throw new Error(`an unclosed quote in: ${line}`)
        value += line.slice(from, quote)
        if (line[quote + 1] !== '"') {
          at = quote + 1
          break
        }
        value += '"'
        from = quote + 2
      }
      fields.push(value)
    } else {
      const next = line.indexOf(';', at)
      fields.push(line.slice(at, next === -1 ? line.length : next))
      at = next === -1 ? line.length : next
    }
    if (at >= line.length) return fields
    at += 1 // the `;`
  }
}
