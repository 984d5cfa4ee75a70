import { attribute, type ResourceKind } from './attribute-schema'

/**
 * The User resource as Painel keeps it (RFC 7643 §4.1): a subset of the core User schema, with
 * the RFC's characteristics. What each attribute is made from is user-resource.ts's and
 * user-input.ts's to say.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'

export const USER: ResourceKind = {
  name: 'User',
  endpoint: '/Users',
  description: 'A person with an account in Painel',
  discardedExtensions: [ENTERPRISE_USER_SCHEMA],
  core: {
    id: USER_SCHEMA,
    name: 'User',
    description: 'User Account',
    attributes: [
      attribute(
        'userName',
        'string',
        "The person's e-mail address, in its canonical form: the identifier they sign in with.",
        { required: true, uniqueness: 'server' },
      ),
      attribute('name', 'complex', "The components of the person's name.", {
        subAttributes: [
          attribute('formatted', 'string', 'The full name: Painel keeps this one.'),
          attribute('familyName', 'string', 'The words of the full name after the first.'),
          attribute('givenName', 'string', 'The first word of the full name.'),
        ],
        discardedSubAttributes: ['middleName', 'honorificPrefix', 'honorificSuffix'],
      }),
      attribute('displayName', 'string', "The person's name as Painel shows it."),
      attribute('active', 'boolean', 'Whether the person may sign in.'),
      attribute('emails', 'complex', "The person's e-mail address (the same as userName).", {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', 'The e-mail address.'),
          attribute('type', 'string', 'Always "work".', {
            canonicalValues: ['work', 'home', 'other'],
          }),
          attribute('primary', 'boolean', 'Always true: Painel keeps one address.'),
        ],
        discardedSubAttributes: ['display'],
      }),
      attribute('groups', 'complex', "The person's team, as a Group.", {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          attribute('value', 'string', 'The id of the Group.', { mutability: 'readOnly' }),
          attribute('$ref', 'reference', 'The URI of the Group.', {
            mutability: 'readOnly',
            referenceTypes: ['Group'],
          }),
          attribute('display', 'string', 'The name of the Group.', { mutability: 'readOnly' }),
        ],
        discardedSubAttributes: ['type'],
      }),
    ],
    discarded: [
      'nickName',
      'profileUrl',
      'title',
      'userType',
      'preferredLanguage',
      'locale',
      'timezone',
      'password',
      'phoneNumbers',
      'ims',
      'photos',
      'addresses',
      'entitlements',
      'roles',
      'x509Certificates',
    ],
  },
}
