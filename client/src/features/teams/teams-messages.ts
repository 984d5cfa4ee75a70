/** The pt-BR words of Times. */
export const teamsMessages = {
  list: {
    title: 'Times',
    intro:
      'Cada pessoa pode estar em um time. Quem tem um papel com alcance "só o próprio time" cuida das pessoas do seu time.',
    create: 'Novo time',
    label: 'Times do Painel',
    empty: 'Nenhum time ainda. Crie o primeiro.',
    open: 'Aberto para cadastro',
    closed: 'Fechado para cadastro',
    managers: 'Gestão',
    noManagers: 'Ninguém com papel de gestão no time',
    /** After the first names, the managers not named (GET /api/teams names five). */
    moreManagers: (count: number) => (count === 1 ? 'e mais 1 pessoa' : `e mais ${count} pessoas`),
    members: (count: number) =>
      count === 0 ? 'Nenhuma pessoa' : count === 1 ? '1 pessoa' : `${count} pessoas`,
    membersOf: (count: number, name: string) =>
      `${count === 1 ? '1 pessoa' : `${count} pessoas`} do time ${name} em Equipe`,
    openPerson: (name: string) => `Abrir a conta de ${name}`,
    edit: 'Editar',
    editTeam: (name: string) => `Editar o time ${name}`,
    delete: 'Excluir',
    deleteTeam: (name: string) => `Excluir o time ${name}`,
    deleteTitle: (name: string) => `Excluir o time ${name}?`,
    deleteBody:
      'O time deixa de existir. As pessoas dele continuam com suas contas e seus papéis, sem time.',
    deleted: (name: string) => `O time ${name} foi excluído.`,
  },
  form: {
    createTitle: 'Novo time',
    editTitle: (name: string) => `Editar o time ${name}`,
    body: 'Um time aberto para cadastro aparece como opção para quem pede uma conta.',
    nameRequired: 'Informe o nome do time.',
    open: 'Aberto para cadastro',
    openHint:
      'Quem pede uma conta pode escolher este time; o pedido espera a gestão do time ou a administração.',
    create: 'Criar time',
    save: 'Salvar',
    created: (name: string) => `O time ${name} foi criado.`,
    saved: (name: string) => `O time ${name} foi salvo.`,
  },
} as const
