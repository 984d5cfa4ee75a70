/** The panel's routes (inside the URL's hash). Inner screens are listed in inner-screens.ts. */
export const paths = {
  home: '/',
  login: '/login',
  recoverPassword: '/recuperar-senha',
  register: '/register',
  notFound: '/404',
  serverError: '/500',
  dashboard: '/dashboard',
  profile: '/perfil',
  staff: '/equipe',
  staffAccount: '/equipe/:id',
  audit: '/auditoria',
} as const

/** The address of one account's page in Equipe. */
export const staffAccountPath = (id: string) => `/equipe/${encodeURIComponent(id)}`

/** Pages anyone may open without a session (docs/architecture.md, "Fixed contracts"), plus `/`, which shows the login page. */
export const PUBLIC_PATHS: readonly string[] = [
  paths.home,
  paths.login,
  paths.register,
  paths.notFound,
  paths.serverError,
  paths.recoverPassword,
]

/** Where a signed-in user lands when there is nowhere better to go. */
export const DEFAULT_SIGNED_IN_PATH = paths.dashboard

/** The query parameter of /login that remembers where the user wanted to go. */
export const REDIRECT_PARAM = 'redirect'
