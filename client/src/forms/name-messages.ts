/** The pt-BR words of the name editor (Minha conta and an account's page in Equipe). */
export const nameMessages = {
  edit: 'Editar',
  field: 'Nome',
  save: 'Salvar',
  cancel: 'Cancelar',
  saved: 'Nome salvo.',
  editOwn: 'Editar seu nome',
  editOf: (name: string) => `Editar o nome de ${name}`,
} as const
