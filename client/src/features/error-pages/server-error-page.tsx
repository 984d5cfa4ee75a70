import { Link } from 'react-router-dom'
import { hasPreviousInAppPage } from '../../routing/in-app-history'
import { paths } from '../../routing/paths'
import { serverErrorMessages } from './server-error-messages'
import { StatusFrame } from '../../ui/status-frame'

const text = serverErrorMessages

export default function ServerErrorPage() {
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
