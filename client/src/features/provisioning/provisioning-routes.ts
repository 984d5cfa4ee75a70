import type { InnerRoute } from '../../routing/route'

/** Provisionamento: the tokens an organisation's directory provisions people with (SCIM). */
export const provisioningRoute: InnerRoute = {
  path: '/provisionamento',
  title: 'Provisionamento',
  access: 'signed-in',
  permission: 'provisioning.manage',
  icon: 'provisioning',
  load: () => import('./provisioning-screen'),
}
