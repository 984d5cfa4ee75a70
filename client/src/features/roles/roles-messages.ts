import type { PermissionGroup } from './permission-groups'

/** The pt-BR words of Papéis and of a role's page. */
export const rolesMessages = {
  list: {
    title: 'Papéis',
    intro:
      'Um papel reúne o que as pessoas podem fazer no Painel e sobre quem: todas as pessoas ou só as do próprio time.',
    create: 'Novo papel',
    label: 'Papéis do Painel',
    builtIn: 'Embutido',
    people: (count: number) =>
      count === 0 ? 'Ninguém' : count === 1 ? '1 pessoa' : `${count} pessoas`,
    permissions: (count: number) =>
      count === 0 ? 'Nenhuma permissão' : count === 1 ? '1 permissão' : `${count} permissões`,
    open: (name: string) => `Abrir o papel ${name}`,
    columns: {
      name: 'Papel',
      scope: 'Alcance',
      permissions: 'Permissões',
      people: 'Pessoas',
    },
  },
  role: {
    back: 'Voltar para Papéis',
    newTitle: 'Novo papel',
    notFound: 'Este papel não existe (ou foi excluído).',
    builtIn:
      'Papel embutido do Painel: não pode ser alterado nem excluído. Para outra combinação de permissões, crie um papel novo.',
    description: 'Descrição',
    noDescription: 'Sem descrição.',
    scope: 'Alcance',
    scopeHints: {
      all: 'As permissões valem para qualquer pessoa do Painel.',
      team: 'As permissões valem só para as pessoas do mesmo time de quem tem o papel.',
    },
    matrix: 'Permissões',
    /** "Pessoas", not "Equipe": that is also a built-in role's name. */
    groups: {
      staff: 'Pessoas',
      audit: 'Auditoria',
      administration: 'Administração',
    } satisfies Record<PermissionGroup, string>,
    allowed: 'Permitido',
    notAllowed: 'Não permitido',
    holders: 'Quem tem este papel',
    noHolders: 'Ninguém tem este papel.',
    holdersHidden: 'Seu papel não permite ver a lista de pessoas.',
    moreHolders: (count: number) =>
      count === 1 ? 'Ver mais 1 pessoa em Equipe' : `Ver mais ${count} pessoas em Equipe`,
    openPerson: (name: string) => `Abrir a conta de ${name}`,
    edit: 'Editar',
    delete: 'Excluir',
    deleteTitle: (name: string) => `Excluir o papel ${name}?`,
    deleteBody: 'O papel deixa de existir.',
    /** Beside a disabled "Excluir": why, before anyone tries. */
    inUse: (count: number) =>
      count === 1
        ? 'Para excluir este papel, dê antes outro papel à pessoa que o tem (abaixo, em “Quem tem este papel”).'
        : `Para excluir este papel, dê antes outro papel às ${count} pessoas que o têm (abaixo, em “Quem tem este papel”).`,
    deleted: (name: string) => `O papel ${name} foi excluído.`,
  },
  form: {
    nameRequired: 'Informe o nome do papel.',
    scope: 'Alcance das permissões',
    save: 'Salvar papel',
    create: 'Criar papel',
    cancel: 'Cancelar',
    saved: (name: string) => `O papel ${name} foi salvo.`,
    created: (name: string) => `O papel ${name} foi criado.`,
    unchanged: 'Nada mudou.',
  },
} as const
