/**
 * The pt-BR words of Equipe, of an account's page and of their actions and dialogs: apart from
 * words/admin-messages.ts so that only those screens' chunks carry them.
 */
export const staffMessages = {
  staff: {
    title: 'Equipe',
    intro:
      'As pessoas do Painel, com seu papel e seu time; as ações que seu papel permite aparecem em cada uma.',
    search: 'Buscar por nome ou e-mail',
    status: 'Situação',
    role: 'Papel',
    locked: 'Bloqueio',
    mfa: 'Segundo fator',
    sort: 'Ordenar por',
    any: 'Todas',
    anyRole: 'Todos',
    anyTeam: 'Todos',
    unknownRole: 'Papel não encontrado',
    unknownTeam: 'Time não encontrado',
    lockedOnly: 'Só bloqueadas',
    unlockedOnly: 'Não bloqueadas',
    withMfa: 'Com segundo fator',
    withoutMfa: 'Sem segundo fator',
    sorts: {
      default: 'Pendentes primeiro',
      name: 'Nome (A–Z)',
      '-name': 'Nome (Z–A)',
      '-createdAt': 'Mais recentes',
      createdAt: 'Mais antigas',
      '-lastSignInAt': 'Último acesso',
    },
    invite: 'Convidar pessoa',
    columns: {
      name: 'Nome',
      /** Equipe's wide table: the name with the e-mail under it. */
      person: 'Nome e e-mail',
      email: 'E-mail',
      role: 'Papel',
      /** Equipe's wide table: the role with the team under it. */
      roleAndTeam: 'Papel e time',
      status: 'Situação',
      lastSignIn: 'Último acesso',
      since: 'Criada em',
      actions: 'Ações',
    },
    total: (count: number) => (count === 1 ? '1 conta' : `${count.toLocaleString('pt-BR')} contas`),
    /** A search (or the lock or 2FA filter) counts up to a cap only: docs/administration.md. */
    moreThan: (count: number) => `mais de ${count.toLocaleString('pt-BR')} contas`,
    empty: 'Nenhuma conta encontrada com estes filtros.',
    page: (page: number, pages: number) =>
      `Página ${page.toLocaleString('pt-BR')} de ${pages.toLocaleString('pt-BR')}`,
    /** Where the number of pages is not known (more than the count goes): refine the search. */
    pageOf: (page: number) => `Página ${page.toLocaleString('pt-BR')}`,
    first: 'Primeira',
    last: 'Última',
    previous: 'Anterior',
    next: 'Próxima',
    pagination: 'Páginas da lista',
    listLabel: 'Contas da equipe',
    actionsFor: (name: string) => `Ações para ${name}`,
    /** Where the actions would be, for a person whose role outranks the viewer's. */
    outranked: 'Sem ações: o papel desta pessoa tem permissões que o seu não tem.',
    open: (name: string) => `Abrir a conta de ${name}`,
  },
  actions: {
    approve: 'Aprovar',
    refuse: 'Recusar',
    disable: 'Desativar',
    enable: 'Reativar',
    makeAdmin: 'Dar o papel de administrador',
    makeStaff: 'Dar o papel de equipe',
    unlock: 'Desbloquear',
    signOut: 'Encerrar sessões',
    reset: 'Enviar link de nova senha',
    mfaOff: 'Desativar segundo fator',
    resendInvitation: 'Reenviar convite',
    // The same buttons for an invited person, whose dialogs say what happens to the invitation.
    disableInvitation: 'Desativar',
    enableInvitation: 'Reativar',
  },
  /** Beside "Convite pendente": when the newest invitation link stops (or stopped) working. */
  invitationExpires: (date: string, past: boolean) =>
    past ? `expirou em ${date}` : `expira em ${date}`,
  confirm: {
    approve: (name: string) => ({
      title: `Aprovar ${name}?`,
      body: `${name} poderá entrar no Painel e receberá um e-mail avisando da aprovação.`,
    }),
    refuse: (name: string) => ({
      title: `Recusar o cadastro de ${name}?`,
      body: 'O pedido será removido e a pessoa receberá um e-mail. O motivo, se informado, vai no e-mail.',
    }),
    disable: (name: string) => ({
      title: `Desativar a conta de ${name}?`,
      body: `${name} não poderá mais entrar, e todas as sessões abertas dessa conta serão encerradas agora.`,
    }),
    enable: (name: string) => ({
      title: `Reativar a conta de ${name}?`,
      body: `${name} poderá entrar no Painel de novo com a senha que já tem.`,
    }),
    makeAdmin: (name: string) => ({
      title: `Dar a ${name} o papel de administrador?`,
      body: `${name} poderá aprovar cadastros, mudar contas e ver a auditoria.`,
    }),
    makeStaff: (name: string) => ({
      title: `Dar a ${name} o papel de equipe?`,
      body: `${name} perderá o papel de administrador e não verá mais Equipe nem Auditoria.`,
    }),
    unlock: (name: string) => ({
      title: `Desbloquear a conta de ${name}?`,
      body: 'As tentativas de acesso que falharam serão esquecidas, e a pessoa poderá entrar de novo agora.',
    }),
    signOut: (name: string) => ({
      title: `Encerrar as sessões de ${name}?`,
      body: `Todas as sessões abertas de ${name} terminam agora; a pessoa precisará entrar de novo.`,
    }),
    reset: (name: string) => ({
      title: `Enviar um link de nova senha para ${name}?`,
      body: 'A pessoa receberá por e-mail um link, válido por 30 minutos, para criar uma nova senha. A senha atual continua valendo até lá.',
    }),
    mfaOff: (name: string) => ({
      title: `Desativar o segundo fator de ${name}?`,
      body: 'Use quando a pessoa perdeu o celular: ela entrará só com a senha até configurar um novo segundo fator.',
    }),
    resendInvitation: (name: string) => ({
      title: `Reenviar o convite para ${name}?`,
      body: 'A pessoa receberá por e-mail um novo link, válido por 7 dias, para criar a própria senha. Os links enviados antes deixam de valer.',
    }),
    disableInvitation: (name: string) => ({
      title: `Desativar a conta de ${name}?`,
      body: `${name} ainda não criou a senha e não poderá entrar enquanto a conta estiver desativada.`,
    }),
    enableInvitation: (name: string) => ({
      title: `Reativar a conta de ${name}?`,
      body: `${name} ainda não criou a senha: o convite volta a ficar pendente, e a pessoa entra depois de criar a senha pelo link do convite. Se o link expirou, reenvie o convite.`,
    }),
    reason: 'Motivo (opcional, vai no e-mail)',
  },
  done: {
    approve: (name: string) => `O cadastro de ${name} foi aprovado.`,
    refuse: (name: string) => `O cadastro de ${name} foi recusado.`,
    disable: (name: string) => `A conta de ${name} foi desativada.`,
    enable: (name: string) => `A conta de ${name} foi reativada.`,
    makeAdmin: (name: string) => `${name} agora é administrador.`,
    makeStaff: (name: string) => `${name} agora é equipe.`,
    unlock: (name: string) => `A conta de ${name} foi desbloqueada.`,
    signOut: (name: string) => `As sessões de ${name} foram encerradas.`,
    reset: (name: string) => `Link de nova senha enviado para ${name}.`,
    mfaOff: (name: string) => `${name} não tem mais segundo fator ativo.`,
    resendInvitation: (name: string) => `Novo convite enviado para ${name}.`,
    disableInvitation: (name: string) => `A conta de ${name} foi desativada.`,
    enableInvitation: (name: string) => `O convite de ${name} voltou a ficar pendente.`,
  },
  invite: {
    title: 'Convidar pessoa',
    body: 'A pessoa recebe um e-mail com um link, válido por 7 dias, para criar a própria senha.',
    name: 'Nome',
    email: 'E-mail',
    role: 'Papel',
    nameRequired: 'Informe o nome.',
    submit: 'Enviar convite',
    done: (email: string) => `Convite enviado para ${email}.`,
  },
  roleTeam: {
    title: 'Papel e time',
    save: 'Salvar papel e time',
    saved: (name: string) => `O papel e o time de ${name} foram salvos.`,
  },
  account: {
    back: 'Voltar para Equipe',
    details: 'Dados da conta',
    name: 'Nome',
    email: 'E-mail',
    role: 'Papel',
    team: 'Time',
    status: 'Situação',
    since: 'Conta criada em',
    lastSignIn: 'Último acesso',
    mfa: 'Segundo fator',
    mfaOn: 'Ativo',
    mfaOff: 'Não configurado',
    signIn: 'Formas de entrar',
    signInPassword: 'Senha',
    signInPasskeys: (n: number) => (n === 1 ? '1 chave de acesso' : `${n} chaves de acesso`),
    signInNone: 'Nenhuma (a pessoa ainda não criou a senha)',
    sendProviderLink: (label: string) => `Enviar link para vincular ${label}`,
    providerLinkSent: (label: string, email: string) =>
      `Link para vincular ${label} enviado para ${email}. Ele vale por 24 horas; um novo link substitui este.`,
    sessions: 'Sessões abertas',
    noSessions: 'Nenhuma sessão aberta.',
    sessionStarted: 'Início',
    sessionEnds: 'Expira em',
    history: 'Histórico',
    noHistory: 'Nenhum evento com estes filtros.',
    actions: 'Ações',
    notFound: 'Esta conta não existe (ou o cadastro foi recusado).',
  },
} as const
