import { paths } from '../../routing/paths'

/** A role's page in Papéis; `novo` is the page of a role being created. */
export const rolePath = (id: string) => `${paths.roles}/${encodeURIComponent(id)}`
export const NEW_ROLE_ID = 'novo'
