/**
 * The words of the account screen (Minha conta), in Brazilian Portuguese: apart from messages.ts
 * so that they are in its chunk only, not in the shared one every cold load (the sign-in page's
 * too) downloads.
 */
export const accountMessages = {
  providers: {
    title: 'Provedores de identidade',
    intro: 'As contas da organização com que você entra no painel.',
    linkedAt: 'Vinculado em',
    lastUsed: 'Último uso',
    never: 'ainda não usado',
    unlink: 'Desvincular',
    unlinkLabel: (label: string) => `Desvincular ${label}`,
    unlinkTitle: (label: string) => `Desvincular ${label}?`,
    unlinkBody:
      'Você deixa de entrar com este provedor. Se entrar por ele de novo, o vínculo só volta pelo e-mail confirmado pelo provedor.',
    unlinked: 'Provedor desvinculado.',
    lastWay:
      'É sua única forma de entrar: para desvincular, crie uma senha ou adicione uma chave de acesso antes.',
  },
  sessions: {
    title: 'Sessões abertas',
    intro: 'Os navegadores em que sua conta está conectada agora.',
    current: 'Esta sessão',
    unknownBrowser: 'Navegador desconhecido',
    unknownAddress: 'endereço desconhecido',
    address: 'Endereço',
    lastSeen: 'Último acesso',
    since: 'Iniciada em',
    end: 'Encerrar',
    endLabel: (browser: string, lastSeen: string) =>
      `Encerrar a sessão de ${browser} (último acesso em ${lastSeen})`,
    endOthers: 'Encerrar as outras sessões',
    ended: 'Sessão encerrada.',
    othersEnded: 'As outras sessões foram encerradas.',
    onlyThis: 'Só esta sessão está aberta.',
    endTitle: (browser: string) => `Encerrar a sessão de ${browser}?`,
    endBody: 'Quem estiver nesse navegador volta para a página de entrada.',
    endOthersTitle: (count: number) =>
      count === 1
        ? 'Encerrar a outra sessão aberta?'
        : `Encerrar as outras ${count} sessões abertas?`,
    endOthersBody: 'Os outros navegadores voltam para a página de entrada. Esta sessão continua.',
    endOthersConfirm: (count: number) =>
      count === 1 ? 'Encerrar 1 sessão' : `Encerrar ${count} sessões`,
  },
  profile: {
    title: 'Minha conta',
    loading: 'Carregando seus dados…',
    name: 'Nome',
    email: 'E-mail',
    status: 'Situação',
    since: 'Conta criada em',
    statuses: { pending: 'Aguardando aprovação', active: 'Ativa', disabled: 'Desativada' },
    changePassword: 'Alterar senha',
    currentPassword: 'Senha atual',
    newPassword: 'Nova senha',
    confirmPassword: 'Confirmar nova senha',
    save: 'Salvar nova senha',
    changed: 'Senha alterada. As outras sessões abertas com esta conta foram encerradas.',
  },
} as const
