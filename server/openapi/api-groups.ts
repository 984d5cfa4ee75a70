/**
 * A group of the API's operations: each operation is tagged with its feature's group (given
 * where the feature is listed, server/built-in-api.ts: an entry without one does not
 * compile), which documentation tools and client generators use to file it (one page, one class
 * per tag). The document lists the groups its operations use, in the order they first appear.
 */
export interface ApiGroup {
  readonly name: string
  readonly description: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The group of the feature the route belongs to, set where the features are listed. */
    apiGroup?: ApiGroup
  }
}

/** The groups several features share; a feature of a group of its own may give it inline. */
export const API_GROUPS = {
  signIn: {
    name: 'Sign-in',
    description:
      'Signing in (password, second step, passkey, a sign-in provider), signing out, ' +
      'registering, recovering a password and changing it. Public, except where an operation ' +
      'names the bearer scheme.',
  },
  myAccount: {
    name: 'My account',
    description:
      "The signed-in person's own account: name, sessions, authenticator app, recovery codes " +
      'and passkeys.',
  },
  staff: {
    name: 'Staff',
    description:
      'Staff administration, for admins: the list, approving and refusing registrations, ' +
      'invitations, roles, disabling, unlocking, ending sessions, reset links.',
  },
  roles: {
    name: 'Roles',
    description:
      'The fixed catalogue of permissions roles are made of, and the roles: permissions with a ' +
      'scope; Administrador and Equipe are built in (docs/roles-and-teams.md).',
  },
  teams: {
    name: 'Teams',
    description: 'Teams: a person has one or none; managers run their own team.',
  },
  audit: {
    name: 'Audit log',
    description: 'Who did what, to whom and when, for admins: pages by cursor and a CSV export.',
  },
  dashboard: {
    name: 'Dashboard',
    description: "The dashboard's figures: accounts, pending approvals, sign-ins per day.",
  },
} as const satisfies Record<string, ApiGroup>
