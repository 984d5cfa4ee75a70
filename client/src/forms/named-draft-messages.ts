/** The pt-BR words a named thing's form (a role's, a team's) shares; its own say what it names. */
export const namedDraftMessages = {
  name: 'Nome',
  nameTooLong: (max: number) => `O nome pode ter até ${max} caracteres.`,
  description: 'Descrição (opcional)',
  descriptionTooLong: (max: number) => `A descrição pode ter até ${max} caracteres.`,
} as const
