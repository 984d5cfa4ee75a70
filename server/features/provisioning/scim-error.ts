/**
 * SCIM's own error answer (RFC 7644 §3.12). Unlike the rest of the API, whose errors are
 * `{"error":{"code","message"}}` in pt-BR, a directory reads this shape and these English
 * details: Entra ID and Okta show `detail` to the administrator in their provisioning logs.
 */

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'

/** The `scimType` values of RFC 7644 §3.12, Table 9 (those a 400 or 409 carries). */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive'

export interface ScimErrorBody {
  schemas: [typeof ERROR_SCHEMA]
  /** A string, not a number: RFC 7644 §3.12 defines it so. */
  status: string
  scimType?: ScimType
  detail: string
}

/**
 * Thrown by every module of this folder for a request it refuses; nothing else escapes them
 * (the parsers catch their own slips and turn them into one of these). `status` is 400 unless
 * said otherwise (404, 409, 412, 413 are the route's to choose).
 */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    readonly detail: string,
  ) {
    super(detail)
    this.name = 'ScimError'
  }

  body(): ScimErrorBody {
    return scimErrorBody(this.status, this.detail, this.scimType)
  }
}

export function scimErrorBody(status: number, detail: string, scimType?: ScimType): ScimErrorBody {
  return {
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  }
}

/** A 400 with a scimType: the common case. */
export const badRequest = (scimType: ScimType, detail: string) =>
  new ScimError(400, scimType, detail)
