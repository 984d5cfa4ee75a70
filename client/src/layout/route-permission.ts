import type { ViewerAccess } from '../session/access'
import type { InnerRoute } from '../routing/route'

/**
 * Whether the viewer may open an inner screen: the one rule the sidebar (which lists only these)
 * and the layout's no-permission notice (route-access.tsx) both follow. A route object's
 * `permission` is the one its API route declares (`x-permission`, from common/permissions.ts or
 * a feature's map such as common/staff-permissions.ts); the server refuses anyone else anyway.
 */
export const mayOpen = (route: InnerRoute, access: Pick<ViewerAccess, 'can'>) =>
  !route.permission || access.can(route.permission)
