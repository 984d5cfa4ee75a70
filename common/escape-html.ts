const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Text for HTML written as a string, between tags or in a quoted attribute: the five characters
 * that could end either, as entities. Used wherever HTML is built without React: a mail's HTML
 * part (server/mail/compose.ts), the sign-in page's provider buttons
 * (server/static/sign-in-providers-page.ts) and the "Meus dados" page to read
 * (client/src/features/my-account/my-data-letter.ts).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character)
}
