import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

/**
 * Setting up a second factor when MFA_REQUIRED asks for one: the only screen such a person can
 * reach (layout/second-factor-gate.tsx), and then the only one in the sidebar.
 */
export const secondFactorSetupRoute: InnerRoute = {
  path: paths.secondFactorSetup,
  title: 'Ativar duas etapas',
  pageTitle: 'Ative a verificação em duas etapas',
  access: 'signed-in',
  icon: 'profile',
  notInMenu: true,
  load: () => import('./second-factor-setup-screen'),
}
