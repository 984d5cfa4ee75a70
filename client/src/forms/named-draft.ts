import { namedDraftMessages } from './named-draft-messages'

/** The fields a named thing's form (a role, a team) checks before sending. */
export type NamedField = 'name' | 'description'

export interface NamedDraft {
  name: string
  description: string
}

/** What a named thing's form says under its name and description when they break the API's limits. */
export function namedDraftProblems(
  draft: NamedDraft,
  limits: { name: number; description: number },
  /** "Informe o nome do papel.": says what is named. */
  nameRequired: string,
): Partial<Record<NamedField, string>> {
  const problems: Partial<Record<NamedField, string>> = {}
  const name = draft.name.trim()
  if (name === '') problems.name = nameRequired
  else if (name.length > limits.name) problems.name = namedDraftMessages.nameTooLong(limits.name)
  if (draft.description.trim().length > limits.description)
    problems.description = namedDraftMessages.descriptionTooLong(limits.description)
  return problems
}
