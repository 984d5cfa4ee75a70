import { auditRoute } from '../features/audit/audit-routes'
import { dashboardRoute } from '../features/dashboard/dashboard-routes'
import { deletionRequestsRoute } from '../features/deletion-requests/deletion-requests-routes'
import {
  loadInnerNotFound,
  notFoundRoute,
  serverErrorRoute,
} from '../features/error-pages/error-pages-routes'
import { emailConfirmationRoute } from '../features/email-confirmation/email-confirmation-routes'
import { profileRoute } from '../features/my-account/my-account-routes'
import { providerLinkRoute } from '../features/provider-link/provider-link-routes'
import { roleRoute, rolesRoute } from '../features/roles/roles-routes'
import { teamsRoute } from '../features/teams/teams-routes'
import { provisioningRoute } from '../features/provisioning/provisioning-routes'
import { recoveryRoute } from '../features/recovery/recovery-routes'
import { registerRoute } from '../features/registration/registration-routes'
import { secondFactorSetupRoute } from '../features/second-factor-setup/second-factor-setup-routes'
import { loginRoute } from '../features/sign-in/sign-in-routes'
import { staffAccountRoute, staffRoute } from '../features/staff/staff-routes'
import type { PanelRoute } from '../routing/route'

/**
 * Every route of the panel, one line per route object: the router, the sidebar (in this order),
 * the breadcrumb and the tabs' titles are made from it, and the build finds each page's chunk
 * through it (scripts/build/route-table.ts). Route objects import no page, so this list stays
 * small: it is in every cold load.
 */
export const ROUTES: readonly PanelRoute[] = [
  loginRoute,
  registerRoute,
  recoveryRoute,
  emailConfirmationRoute,
  providerLinkRoute,
  notFoundRoute,
  serverErrorRoute,
  dashboardRoute,
  profileRoute,
  staffRoute,
  // Before /equipe/:id: the breadcrumb and the tab take the first route that matches (route-at.ts).
  { ...deletionRequestsRoute, parent: staffRoute },
  staffAccountRoute,
  auditRoute,
  rolesRoute,
  roleRoute,
  teamsRoute,
  provisioningRoute,
  secondFactorSetupRoute,
]

/** The signed-in frame (sidebar, header, breadcrumb), a chunk of its own. */
export const loadLayout = () => import('../layout/default-layout')

/** The layout's content at an address no inner screen has. */
export const loadInnerFallback = loadInnerNotFound
