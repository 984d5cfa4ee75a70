/**
 * The words of the account screens (Minha conta, Equipe), in Brazilian Portuguese: apart from messages.ts so that they are in
 * those chunks only, not in the shared one every cold load (the sign-in page's too) downloads.
 */
export const accountMessages = {
  profile: {
    title: 'Minha conta',
    loading: 'Carregando seus dados…',
    name: 'Nome',
    email: 'E-mail',
    role: 'Perfil de acesso',
    status: 'Situação',
    since: 'Conta criada em',
    roles: { admin: 'Administrador', staff: 'Equipe' },
    statuses: { pending: 'Aguardando aprovação', active: 'Ativa', disabled: 'Desativada' },
    changePassword: 'Alterar senha',
    currentPassword: 'Senha atual',
    newPassword: 'Nova senha',
    confirmPassword: 'Confirmar nova senha',
    save: 'Salvar nova senha',
    changed: 'Senha alterada. As outras sessões abertas com esta conta foram encerradas.',
  },
  staff: {
    title: 'Equipe',
    intro: 'Contas da equipe. Aprove os cadastros novos e desative quem não deve mais entrar.',
    loading: 'Carregando a equipe…',
    restricted: 'Esta tela é só para administradores.',
    empty: 'Nenhuma conta ainda.',
    pendingCount: (count: number) =>
      count === 1 ? '1 cadastro aguarda aprovação.' : `${count} cadastros aguardam aprovação.`,
    columns: {
      name: 'Nome',
      email: 'E-mail',
      role: 'Perfil',
      status: 'Situação',
      since: 'Criada em',
      actions: 'Ações',
    },
    approve: 'Aprovar',
    disable: 'Desativar',
    enable: 'Reativar',
    you: '(você)',
    approved: (name: string) => `${name} agora pode entrar no painel.`,
    disabled: (name: string) =>
      `A conta de ${name} foi desativada e as sessões abertas foram encerradas.`,
    enabled: (name: string) => `${name} pode entrar no painel de novo.`,
  },
} as const
