import type { ComponentType } from 'react'
import type { Permission } from '../../../common/permissions'

/**
 * The sidebar's icons by name: layout/screen-icons.ts gives each its CoreUI icon (a name without
 * one does not compile there). Named here so that the route objects, in every cold load, carry
 * a word and not the icon's paths, and so that routing/ needs nothing from layout/.
 */
export type ScreenIcon =
  'dashboard' | 'profile' | 'staff' | 'audit' | 'roles' | 'teams' | 'provisioning'

/** What a route's loader gives: its page or screen as the module's default export. */
export type PageModule = { default: ComponentType }

/**
 * Who may open a route:
 * - `public`: anyone, signed in or not (the 404 and 500 pages);
 * - `signed-out`: anyone, but someone signed in goes on into the panel (sign-in, registration,
 *   recovery; routing/redirect-if-signed-in.tsx);
 * - `signed-in`: inside the layout, for anyone with a session (routing/require-session.tsx); an
 *   inner route's `permission` narrows it further.
 */
export type Access = 'public' | 'signed-out' | 'signed-in'

interface RouteBase {
  /** The route pattern inside the hash (`/equipe/:id`). */
  path: string
  /** Its name: the browser tab's, and for an inner screen the sidebar's and the breadcrumb's. */
  title: string
  access: Access
  /**
   * The page's own chunk: `() => import('./x-screen')`, fetched the first time it is opened. The
   * build finds every route's chunk through these loaders (scripts/build/route-table.ts).
   */
  load: () => Promise<PageModule>
}

/** A page outside the layout, with the whole screen to itself. */
export interface PublicRoute extends RouteBase {
  access: 'public' | 'signed-out'
  /**
   * `false` for the login page only: the CSS inline in index.html covers it, so it does not wait
   * for the whole stylesheet (routing/chunk-loading.ts).
   */
  wholeStylesheet?: false
}

/** An inner screen: inside the layout (sidebar, header, breadcrumb), for signed-in people. */
export interface InnerRoute extends RouteBase {
  access: 'signed-in'
  /**
   * The permission (common/permissions.ts) its screen needs: listed in the sidebar only for
   * whoever holds it; anyone else who opens it reads that they may not (layout/route-access.tsx).
   * The server refuses them anyway.
   */
  permission?: Permission
  /** Its icon in the sidebar (layout/screen-icons.ts names them). */
  icon: ScreenIcon
  /** Reached from another screen or only in a given state, so not listed in the sidebar. */
  notInMenu?: true
  /** The screen it is reached from, between Início and it in the breadcrumb. */
  parent?: InnerRoute
  /** The tab's (and the no-permission notice's) title, when it is not `title`. */
  pageTitle?: string
}

export type PanelRoute = PublicRoute | InnerRoute

export function isInnerRoute(route: PanelRoute): route is InnerRoute {
  return route.access === 'signed-in'
}
