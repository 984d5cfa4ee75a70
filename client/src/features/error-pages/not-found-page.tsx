import { Link } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { notFoundMessages } from './not-found-messages'
import { StatusFrame } from '../../ui/status-frame'

const text = notFoundMessages

export default function NotFoundPage() {
  return (
    <StatusFrame code={text.code} title={text.title} text={text.text}>
      {/* `/` is the login page, which sends a signed-in user on to the dashboard. */}
      <Link to={paths.home} className="btn btn-primary">
        {text.back}
      </Link>
    </StatusFrame>
  )
}
