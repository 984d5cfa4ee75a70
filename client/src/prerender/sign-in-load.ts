import { parseToken } from '../session/token'

/**
 * Which loads show the sign-in page that the build put into index.html (scripts/build/prerender.ts).
 * Shared by the boot script in <head>, which decides before the first paint whether the
 * prerendered form may be seen, and by the app, which hydrates that form instead of rendering it.
 */

/**
 * On `<html>`, set by the boot script: `sign-in` (the prerendered form is this load's page) or
 * `app` (anything else: app.css hides the form and shows the spinner beside it).
 */
export const LOAD_ATTRIBUTE = 'data-painel-load'
export type LoadKind = 'sign-in' | 'app'

/**
 * The hash route's path as the router matches it: without the query, without a trailing slash,
 * and lower-cased (React Router's matching ignores case).
 */
export function hashPath(hash: string): string {
  const route = hash.replace(/^#/, '')
  const query = route.indexOf('?')
  const path = (query < 0 ? route : route.slice(0, query)).toLowerCase()
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/** `#/`, `#/login` or no hash at all: the routes that show the sign-in page (docs/architecture.md, "Fixed contracts"). */
export function isSignInRoute(hash: string): boolean {
  const path = hashPath(hash)
  return path === '' || path === '/' || path === '/login'
}

/** A sign-in load: nobody is signed in (token_adm holds no token) and the route is the login page. */
export function loadKind(hash: string, storedToken: string | null): LoadKind {
  return parseToken(storedToken) === null && isSignInRoute(hash) ? 'sign-in' : 'app'
}

/**
 * `#/` and an empty hash as `#/login`, the query kept: the router would redirect there anyway,
 * but only after its first render, and that render must be the prerendered login page for the
 * app to hydrate it.
 */
export function canonicalSignInHash(hash: string): string {
  const route = hash.replace(/^#/, '')
  const query = route.indexOf('?')
  const path = query < 0 ? route : route.slice(0, query)
  const search = query < 0 ? '' : route.slice(query)
  return path === '' || path === '/' ? `#/login${search}` : hash
}
