import { useEffect } from 'react'
import { messages } from '../words/messages'

/** "Entrar · Painel": the browser tab and history say which page this is. */
const tabTitle = (title: string) => `${title} · ${messages.app.name}`

/**
 * The router names every route's tab from its route object (app/router.tsx); a page whose title
 * changes with what it shows (recovery: asking for a link, or setting the new password) names it
 * with this hook, whose plain effect runs after the router's layout effect.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = tabTitle(title)
  }, [title])
}
