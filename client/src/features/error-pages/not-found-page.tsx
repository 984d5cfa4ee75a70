import { Link } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { useDocumentTitle } from '../../routing/use-document-title'
import { messages } from '../../words/messages'
import { StatusFrame } from '../../ui/status-frame'

const text = messages.notFound

export default function NotFoundPage() {
  useDocumentTitle(text.title)
  return (
    <StatusFrame code={text.code} title={text.title} text={text.text}>
      {/* `/` is the login page, which sends a signed-in user on to the dashboard. */}
      <Link to={paths.home} className="btn btn-primary">
        {text.back}
      </Link>
    </StatusFrame>
  )
}
