import { normalizeAccountId } from '../../../common/account-id'
import { TEAM_NAME_MAX_LENGTH } from '../../../common/role-limits'
import { GROUP } from './group-schema'
import { externalIdOf, keptAttributes } from './resource-input'
import { badRequest } from './scim-error'

/**
 * What Painel stores of a Group from a POST or PUT body, or from a PATCH's result: the team's
 * name (trimmed, at most TEAM_NAME_MAX_LENGTH characters, as the teams screen allows), its
 * externalId, and its people's ids (plain UUIDs, lower-cased: common/account-id.ts; listed twice
 * is once). Whether each id is a person the token may see is the caller's to check. A member of
 * another type than User is refused: a team holds no teams. No `members` is an empty team
 * (PUT replaces: RFC 7644 §3.5.1).
 */

export interface GroupFields {
  name: string
  externalId: string | null
  memberIds: string[]
}

export function groupFields(body: unknown): GroupFields {
  const kept = keptAttributes(GROUP, body)
  const name = typeof kept.displayName === 'string' ? kept.displayName.trim() : ''
  if (name === '') throw badRequest('invalidValue', 'A Group needs a displayName.')
  if ([...name].length > TEAM_NAME_MAX_LENGTH)
    throw badRequest(
      'invalidValue',
      `The displayName is longer than ${TEAM_NAME_MAX_LENGTH} characters.`,
    )
  const memberIds = new Set<string>()
  for (const member of (kept.members ?? []) as { value?: string; type?: string }[]) {
    if (member.type !== undefined && member.type.toLowerCase() !== 'user')
      throw badRequest(
        'invalidValue',
        `A member of type ${JSON.stringify(member.type)} cannot join a team: only Users can.`,
      )
    const id = typeof member.value === 'string' ? normalizeAccountId(member.value) : null
    if (id === null)
      throw badRequest(
        'invalidValue',
        `The member ${JSON.stringify(member.value ?? null)} is not the id of a User.`,
      )
    memberIds.add(id)
  }
  return { name, externalId: externalIdOf(kept), memberIds: [...memberIds] }
}
