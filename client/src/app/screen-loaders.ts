import type { ComponentType } from 'react'
import type { ScreenPath } from './inner-screens'
import { paths } from '../routing/paths'

type ScreenModule = Promise<{ default: ComponentType }>

/**
 * How the router fetches each inner screen: a chunk of its own, the first time it is opened.
 * Kept apart from the screen table (inner-screens.ts) so that the table imports no screen and a
 * screen can read the table without an import cycle. A Record over ScreenPath: a screen added to
 * the table without a loader does not compile.
 */
export const SCREEN_LOADERS: Record<ScreenPath, () => ScreenModule> = {
  [paths.dashboard]: () => import('../features/dashboard/dashboard-screen'),
  [paths.profile]: () => import('../features/my-account/profile-screen'),
  [paths.staff]: () => import('../features/staff/staff-screen'),
  [paths.staffAccount]: () => import('../features/staff/staff-account-screen'),
  [paths.audit]: () => import('../features/audit/audit-screen'),
}
