import type { AttributeDefinition, ResourceKind } from './attribute-schema'
import { GROUP } from './group-schema'
import { MAX_PAGE_SIZE } from './list-response'
import { USER } from './user-schema'

/**
 * What a client reads to learn the service (RFC 7644 §4, RFC 7643 §5–7): ServiceProviderConfig,
 * ResourceTypes and Schemas. They say what the rest of this folder does: PATCH yes, bulk no,
 * filter yes (up to MAX_PAGE_SIZE a page), sort no, change of password no (people sign in through
 * the organisation's provider, or set their own), ETags yes (meta.version), a bearer token (no
 * `primary`: RFC 7643 §8.5's example has one, its schema in §5 does not). The
 * Schemas list only what Painel keeps (attribute-schema.ts), with the RFC's characteristics.
 */

export const SERVICE_PROVIDER_CONFIG_SCHEMA =
  'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'
export const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType'
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema'

export const RESOURCE_KINDS: readonly ResourceKind[] = [USER, GROUP]

export function serviceProviderConfig(baseUrl: string, documentationUri?: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    ...(documentationUri ? { documentationUri } : {}),
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description:
          'A provisioning token made in Painel (Provisionamento), sent as "Authorization: Bearer …".',
        specUri: 'https://www.rfc-editor.org/info/rfc6750',
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  }
}

export function resourceType(kind: ResourceKind, baseUrl: string) {
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: kind.name,
    name: kind.name,
    endpoint: kind.endpoint,
    description: kind.description,
    schema: kind.core.id,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${kind.name}` },
  }
}

/** An attribute as RFC 7643 §7 describes it: our bookkeeping (discarded names) left out. */
function described(attribute: AttributeDefinition): Record<string, unknown> {
  const { subAttributes, ...characteristics } = attribute
  delete characteristics.discardedSubAttributes
  return {
    ...characteristics,
    ...(subAttributes ? { subAttributes: subAttributes.map(described) } : {}),
  }
}

export function schemaDocument(kind: ResourceKind, baseUrl: string) {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: kind.core.id,
    name: kind.core.name,
    description: kind.core.description,
    attributes: kind.core.attributes.map(described),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${kind.core.id}` },
  }
}
