import { Link } from 'react-router-dom'
import { listDeletionRequests } from '../../api/deletion-requests-api'
import { useLoad } from '../../api/use-load'
import { paths } from '../../routing/paths'

/**
 * Equipe's way to the open requests for deletion (features/deletion-requests), shown only when
 * there are some: "Pedidos de exclusão (N)". Nothing while it loads or when the call fails, so
 * a backend without the route (API_UPSTREAM) leaves Equipe as it was.
 */
export function DeletionRequestsLink() {
  const { load } = useLoad(listDeletionRequests)
  const count = load.state === 'ready' ? load.data.requests.length : 0
  if (count === 0) return null
  return (
    <Link to={paths.deletionRequests} className="btn btn-outline-danger">
      Pedidos de exclusão ({count})
    </Link>
  )
}
