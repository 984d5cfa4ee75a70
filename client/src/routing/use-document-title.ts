import { useEffect } from 'react'
import { messages } from '../words/messages'

/** "Entrar · Painel": the browser tab and history say which page this is. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${messages.app.name}`
  }, [title])
}
