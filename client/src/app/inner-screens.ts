import { messages } from '../messages'
import { paths } from './paths'

/** The icons the sidebar knows; it maps each name to a CoreUI icon in the layout's own chunk. */
export type ScreenIcon = 'dashboard' | 'profile' | 'staff'

export type ScreenPath = (typeof paths)['dashboard' | 'profile' | 'staff']

export interface InnerScreen {
  path: ScreenPath
  /** Shown in the sidebar, the breadcrumb and the browser tab. */
  title: string
  icon: ScreenIcon
  /** Listed in the menu for admins only (the server refuses everyone else anyway). */
  adminOnly?: boolean
}

/**
 * The one table of inner screens: the router, the sidebar, the breadcrumb and the dashboard all
 * read it. It imports no screen (their chunks are loaded by screen-loaders.ts, beside the router),
 * so any screen may read it without a cycle.
 */
export const INNER_SCREENS: readonly InnerScreen[] = [
  {
    path: paths.dashboard,
    title: messages.nav.dashboard,
    icon: 'dashboard',
  },
  {
    path: paths.profile,
    title: messages.nav.profile,
    icon: 'profile',
  },
  {
    path: paths.staff,
    title: messages.nav.staff,
    icon: 'staff',
    adminOnly: true,
  },
]

export function innerScreenAt(pathname: string): InnerScreen | undefined {
  return INNER_SCREENS.find((screen) => screen.path === pathname)
}
