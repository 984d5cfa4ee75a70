import { messages } from '../words/messages'
import { paths } from '../routing/paths'

/** The icons the sidebar knows; it maps each name to a CoreUI icon in the layout's own chunk. */
export type ScreenIcon = 'dashboard' | 'profile' | 'staff' | 'audit'

export type ScreenPath = (typeof paths)[
  'dashboard' | 'profile' | 'staff' | 'staffAccount' | 'audit']

export interface InnerScreen {
  path: ScreenPath
  /** Shown in the sidebar, the breadcrumb and the browser tab. */
  title: string
  icon: ScreenIcon
  /** Listed in the menu for admins only (the server refuses everyone else anyway). */
  adminOnly?: boolean
  /** Reached from another screen (an account's page), not listed in the sidebar. */
  notInMenu?: boolean
  /** The screen it is reached from, between Início and it in the breadcrumb. */
  parent?: ScreenPath
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
  {
    path: paths.staffAccount,
    title: messages.nav.staffAccount,
    icon: 'staff',
    adminOnly: true,
    notInMenu: true,
    parent: paths.staff,
  },
  {
    path: paths.audit,
    title: messages.nav.audit,
    icon: 'audit',
    adminOnly: true,
  },
]

/** Whether a route pattern (`/equipe/:id`) matches a path, segment by segment. */
function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/')
  const got = pathname.split('/')
  return (
    want.length === got.length &&
    want.every((segment, index) =>
      segment.startsWith(':') ? got[index] !== '' : segment === got[index],
    )
  )
}

export function innerScreenAt(pathname: string): InnerScreen | undefined {
  return INNER_SCREENS.find((screen) => matches(screen.path, pathname))
}
