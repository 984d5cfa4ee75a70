import { Link } from 'react-router-dom'
import { paths } from '../app/paths'
import { useDocumentTitle } from '../lib/use-document-title'
import { messages } from '../messages'
import { StatusFrame } from './status-frame'

const text = messages.serverError

export default function ServerErrorPage() {
  useDocumentTitle(text.title)
  return (
    <StatusFrame code={text.code} title={text.title} text={text.text}>
      <Link to={paths.home} className="btn btn-primary">
        {text.back}
      </Link>
      {/* Only when there is a page to go back to (not when the panel was opened on /500). */}
      {window.history.length > 1 && (
        <button type="button" className="btn btn-link" onClick={() => window.history.back()}>
          {text.retry}
        </button>
      )}
    </StatusFrame>
  )
}
