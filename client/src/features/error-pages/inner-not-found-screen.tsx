import { Link } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { useDocumentTitle } from '../../routing/use-document-title'

/** Its words: here, not shared with the 404 page's (see not-found-messages.ts). */
const text = {
  title: 'Página não encontrada',
  innerText: 'Esta tela não existe no painel. Confira o endereço ou volte ao início.',
  back: 'Voltar ao início',
} as const

/** An unknown path inside the panel: said inside the layout, so the menu is still there. */
export default function InnerNotFoundScreen() {
  useDocumentTitle(text.title)
  return (
    <>
      <h1 className="h2">{text.title}</h1>
      <p className="text-body-secondary">{text.innerText}</p>
      <Link to={paths.dashboard} className="btn btn-primary">
        {text.back}
      </Link>
    </>
  )
}
