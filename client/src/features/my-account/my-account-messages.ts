/**
 * The words of the account screen (Minha conta), in Brazilian Portuguese: apart from messages.ts
 * so that they are in its chunk only, not in the shared one every cold load (the sign-in page's
 * too) downloads.
 */
export const accountMessages = {
  profile: {
    title: 'Minha conta',
    loading: 'Carregando seus dados…',
    name: 'Nome',
    email: 'E-mail',
    role: 'Papel',
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
} as const
