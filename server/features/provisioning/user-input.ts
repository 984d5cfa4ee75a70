import { canonicalEmail } from '../../../common/account-rules'
import { NAME_PROBLEM_MESSAGES, nameProblem, normalizeName } from '../../../common/name-rules'
import { externalIdOf, keptAttributes, type KeptAttributes } from './resource-input'
import { badRequest } from './scim-error'
import type { ScimResource } from './user-resource'
import { USER } from './user-schema'

/**
 * What Painel stores of a User from a POST or PUT body, or from a PATCH's result
 * (patch-operations.ts), with `current` the representation the change started from.
 *
 * - userName must be an address canonicalEmail (common/account-rules.ts) accepts: case and
 *   blanks around it do not matter, a look-alike (`\u212Aate@…`, fullwidth letters, an invisible
 *   character) is `invalidValue`, never folded into the address it imitates.
 * - The name comes from name.formatted, else displayName, else givenName and familyName joined
 *   by a space. Painel keeps one name and shows it in all three, so when there is a `current`,
 *   the source the client changed wins (a PATCH of displayName alone renames the person, though
 *   name.formatted still holds the old name). None at all is `invalidValue`.
 * - active: true or false ("True"/"False" too: attribute-values.ts); absent, it stays as it was
 *   (true for a new person).
 * - emails are read (checked like any value) and not stored: the address is userName's. Entra ID
 *   and Okta send the same address in both when mapped as their documentation shows.
 * - groups, id and meta are read-only and ignored; attributes Painel does not keep are dropped;
 *   an attribute no schema defines is `invalidSyntax` (resource-input.ts).
 */

export interface UserFields {
  email: string
  name: string
  active: boolean
  externalId: string | null
}

export function userFields(body: unknown, current?: ScimResource): UserFields {
  const kept = keptAttributes(USER, body)
  const before = current ? keptAttributes(USER, current) : undefined
  return {
    email: emailOf(kept),
    name: nameOf(kept, before),
    active:
      typeof kept.active === 'boolean'
        ? kept.active
        : ((before?.active as boolean | undefined) ?? true),
    externalId: externalIdOf(kept),
  }
}

function emailOf(kept: KeptAttributes): string {
  const userName = kept.userName
  if (typeof userName !== 'string' || userName.trim() === '')
    throw badRequest(
      'invalidValue',
      'A User needs a userName: the e-mail address the person signs in with.',
    )
  const email = canonicalEmail(userName)
  if (email === null)
    throw badRequest(
      'invalidValue',
      `The userName ${JSON.stringify(userName.slice(0, 100))} is not an e-mail address Painel accepts (ASCII letters, digits and the usual signs only).`,
    )
  return email
}

/** name.formatted, displayName, givenName + familyName: each source's name, if it has one. */
function nameSources(kept: KeptAttributes): (string | undefined)[] {
  const name = (kept.name ?? {}) as Record<string, string | undefined>
  const joined = [name.givenName, name.familyName]
    .map((part) => part?.trim())
    .filter((part) => part)
    .join(' ')
  return [name.formatted, kept.displayName as string | undefined, joined].map((source) =>
    typeof source === 'string' && source.trim() !== '' ? normalizeName(source) : undefined,
  )
}

const NAME_PROBLEMS_IN_ENGLISH: Record<string, string> = {
  [NAME_PROBLEM_MESSAGES.unstorable]: 'holds characters Painel does not store in a name',
  [NAME_PROBLEM_MESSAGES.missing]: 'shows nothing',
  [NAME_PROBLEM_MESSAGES.tooLong]: 'is longer than 100 characters',
}

function nameOf(kept: KeptAttributes, before: KeptAttributes | undefined): string {
  const incoming = nameSources(kept)
  const previous = before ? nameSources(before) : []
  const changed = incoming.find(
    (source, index) => source !== undefined && source !== previous[index],
  )
  const name = changed ?? incoming.find((source) => source !== undefined)
  if (name === undefined)
    throw badRequest(
      'invalidValue',
      'A User needs a name: name.formatted, displayName or name.givenName.',
    )
  const problem = nameProblem(name)
  if (problem !== null)
    throw badRequest(
      'invalidValue',
      `The name ${NAME_PROBLEMS_IN_ENGLISH[problem] ?? 'is not accepted'}.`,
    )
  return name
}
