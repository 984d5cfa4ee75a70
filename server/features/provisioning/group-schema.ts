import { attribute, type ResourceKind } from './attribute-schema'

/** The Group resource (RFC 7643 §4.2): a team of Painel; its members are people (Users). */

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'

export const GROUP: ResourceKind = {
  name: 'Group',
  endpoint: '/Groups',
  description: 'A team of Painel',
  discardedExtensions: [],
  core: {
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'Group',
    attributes: [
      attribute('displayName', 'string', "The team's name (unique, case aside).", {
        required: true,
        uniqueness: 'server',
      }),
      attribute('members', 'complex', "The team's people.", {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', 'The id of a User.', { mutability: 'immutable' }),
          attribute('$ref', 'reference', 'The URI of the User.', {
            mutability: 'immutable',
            referenceTypes: ['User'],
          }),
          attribute('display', 'string', "The person's name.", { mutability: 'immutable' }),
          attribute('type', 'string', 'Always "User": a team holds no teams.', {
            mutability: 'immutable',
            canonicalValues: ['User', 'Group'],
          }),
        ],
      }),
    ],
    discarded: [],
  },
}
