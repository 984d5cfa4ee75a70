import {
  cilHistory,
  cilLockLocked,
  cilLoopCircular,
  cilPeople,
  cilSitemap,
  cilSpeedometer,
  cilUser,
} from '@coreui/icons'
import type { ScreenIcon } from '../routing/route'

/**
 * The CoreUI icon of each name a route object may give (routing/route.ts). Here, in the layout's
 * chunk, and not in the route objects: those are in every cold load, the login page's too.
 */
export const SCREEN_ICONS: Readonly<Record<ScreenIcon, string[]>> = {
  dashboard: cilSpeedometer,
  profile: cilUser,
  staff: cilPeople,
  audit: cilHistory,
  roles: cilLockLocked,
  teams: cilSitemap,
  provisioning: cilLoopCircular,
}
