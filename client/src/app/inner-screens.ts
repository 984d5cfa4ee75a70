import type { ComponentType } from 'react'
import { messages } from '../messages'
import { paths } from './paths'

/** The icons the sidebar knows; it maps each name to a CoreUI icon in the layout's own chunk. */
export type ScreenIcon = 'dashboard' | 'profile' | 'staff'

export interface InnerScreen {
  path: string
  /** Shown in the sidebar, the breadcrumb and the browser tab. */
  title: string
  icon: ScreenIcon
  /** Each screen is a chunk of its own, fetched the first time it is opened. */
  load: () => Promise<{ default: ComponentType }>
  /** Listed in the menu for admins only (the server refuses everyone else anyway). */
  adminOnly?: boolean
}

/** The one table of inner screens: the router, the sidebar and the breadcrumb all read it. */
export const INNER_SCREENS: readonly InnerScreen[] = [
  {
    path: paths.dashboard,
    title: messages.nav.dashboard,
    icon: 'dashboard',
    load: () => import('../screens/dashboard-screen'),
  },
  {
    path: paths.profile,
    title: messages.nav.profile,
    icon: 'profile',
    load: () => import('../screens/profile-screen'),
  },
  {
    path: paths.staff,
    title: messages.nav.staff,
    icon: 'staff',
    load: () => import('../screens/staff-screen'),
    adminOnly: true,
  },
]

export function innerScreenAt(pathname: string): InnerScreen | undefined {
  return INNER_SCREENS.find((screen) => screen.path === pathname)
}
