import { createContext, useContext } from 'react'
import type { InnerRoute } from './route'

/**
 * The inner screens' route objects, given to the layout by the composition root (app/router.tsx):
 * the sidebar, the breadcrumb and the admins-only check read them here, so the layout imports no
 * feature.
 */
export const InnerRoutes = createContext<readonly InnerRoute[]>([])

export function useInnerRoutes(): readonly InnerRoute[] {
  return useContext(InnerRoutes)
}
