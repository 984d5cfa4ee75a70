/**
 * The addresses (inside the URL's hash) that more than the route declaring them needs: the
 * guard's and the redirects', and those other screens link to. Each route object (a feature's
 * *-routes.ts) names its own path; a path only its route uses need not be listed here.
 */
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
  /** The open requests for deletion, linked from Equipe (features/deletion-requests). */
  deletionRequests: '/equipe/pedidos-de-exclusao',
  audit: '/auditoria',
  roles: '/papeis',
  role: '/papeis/:id',
  teams: '/times',
  /** Where someone MFA_REQUIRED covers sets up a second factor (layout/second-factor-gate.tsx). */
  secondFactorSetup: '/segundo-fator',
  /** A change of e-mail's mailed links (features/email-confirmation). */
  confirmEmail: '/confirmar-email',
  /** An admin's mailed link to connect a sign-in provider (features/provider-link). */
  linkProvider: '/vincular',
} as const

/** The address of one account's page in Equipe. */
export const staffAccountPath = (id: string) => `/equipe/${encodeURIComponent(id)}`

/**
 * Equipe's list of one role's or one team's people (Papéis and Times link to it; the filters in
 * the URL are features/staff/staff-filters.tsx's).
 */
export const staffOfPath = (filter: 'roleId' | 'teamId', id: string) =>
  `${paths.staff}?${filter}=${encodeURIComponent(id)}`

/**
 * Pages anyone may open without a session (the routing contract of docs/architecture.md), plus
 * `/`, which shows the login page. app/routes.test.ts checks the public route objects against it.
 */
export const PUBLIC_PATHS: readonly string[] = [
  paths.home,
  paths.login,
  paths.register,
  paths.notFound,
  paths.serverError,
  paths.recoverPassword,
  paths.confirmEmail,
  paths.linkProvider,
]

/** Where a signed-in user lands when there is nowhere better to go. */
export const DEFAULT_SIGNED_IN_PATH = paths.dashboard

/** The query parameter of /login that remembers where the user wanted to go. */
export const REDIRECT_PARAM = 'redirect'
