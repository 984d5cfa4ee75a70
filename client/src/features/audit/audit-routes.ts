import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

export const auditRoute: InnerRoute = {
  path: paths.audit,
  title: 'Auditoria',
  access: 'signed-in',
  permission: 'audit.view',
  icon: 'audit',
  load: () => import('./audit-screen'),
}
