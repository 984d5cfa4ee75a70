import { escapeHtml } from '../../common/escape-html'
import type { MailMessage } from './mailer'

/**
 * A mail in pt-BR as plain text and as HTML. The HTML is the text's paragraphs, escaped, with
 * links made clickable: nothing a mail program could hide, nothing the text does not say.
 */

function htmlOf(paragraphs: readonly string[]): string {
  const body = paragraphs
    .map((paragraph) => {
      const escaped = escapeHtml(paragraph).replace(/\n/g, '<br>')
      return /^https?:\/\/\S+$/.test(paragraph)
        ? `<p><a href="${escaped}">${escaped}</a></p>`
        : `<p>${escaped}</p>`
    })
    .join('\n')
  return `<!doctype html><html lang="pt-BR"><body style="font-family:sans-serif;line-height:1.5">\n${body}\n</body></html>`
}

export function composeMail(
  to: string,
  subject: string,
  paragraphs: readonly string[],
): MailMessage {
  return { to, subject, text: paragraphs.join('\n\n'), html: htmlOf(paragraphs) }
}
