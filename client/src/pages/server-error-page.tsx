import { Link } from 'react-router-dom'
import { hasPreviousInAppPage } from '../app/in-app-history'
import { paths } from '../app/paths'
import { useDocumentTitle } from '../lib/use-document-title'
import { serverErrorMessages } from '../messages-server-error'
import { StatusFrame } from './status-frame'

const text = serverErrorMessages.serverError

export default function ServerErrorPage() {
  useDocumentTitle(text.title)
  return (
    <StatusFrame code={text.code} title={text.title} text={text.text}>
      <Link to={paths.home} className="btn btn-primary">
        {text.back}
      </Link>
      {/*
        Only when the previous page is one of the panel's: opened directly on /500, Back would
        leave the app, and "Voltar ao início" already goes to the panel (or to sign-in).
      */}
      {hasPreviousInAppPage() && (
        <button type="button" className="btn btn-link" onClick={() => window.history.back()}>
          {text.retry}
        </button>
      )}
    </StatusFrame>
  )
}
