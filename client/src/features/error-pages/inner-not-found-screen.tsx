import { Link } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { useDocumentTitle } from '../../routing/use-document-title'
import { messages } from '../../words/messages'

const text = messages.notFound

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
