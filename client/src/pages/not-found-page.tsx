import { Link } from 'react-router-dom'
import { paths } from '../app/paths'
import { useDocumentTitle } from '../lib/use-document-title'
import { messages } from '../messages'
import { StatusFrame } from './status-frame'

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
