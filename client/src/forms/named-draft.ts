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
  words: {
    nameRequired: string
    nameTooLong: (max: number) => string
    descriptionTooLong: (max: number) => string
  },
): Partial<Record<NamedField, string>> {
  const problems: Partial<Record<NamedField, string>> = {}
  const name = draft.name.trim()
  if (name === '') problems.name = words.nameRequired
  else if (name.length > limits.name) problems.name = words.nameTooLong(limits.name)
  if (draft.description.trim().length > limits.description)
    problems.description = words.descriptionTooLong(limits.description)
  return problems
}
