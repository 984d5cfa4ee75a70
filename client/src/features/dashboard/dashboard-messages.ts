/**
 * The words of the dashboard, in Brazilian Portuguese: apart from messages.ts so that they are in
 * those chunks only, not in the shared one every cold load (the sign-in page's too) downloads.
 */
export const dashboardMessages = {
  dashboard: {
    title: 'Início',
    greeting: (name: string) => `Olá, ${name}!`,
    greetingAnonymous: 'Olá!',
    accounts: 'Contas',
    active: 'Ativas',
    invited: 'Convites pendentes',
    pending: 'Aguardando aprovação',
    disabled: 'Desativadas',
    waiting: 'Cadastros aguardando aprovação',
    nothingWaiting: 'Nenhum cadastro aguardando aprovação.',
    seeAllPending: (count: number) =>
      count === 1
        ? 'Ver o cadastro pendente em Equipe'
        : `Ver os ${count} cadastros pendentes em Equipe`,
    signIns: 'Acessos nos últimos 14 dias',
    succeeded: 'Com sucesso',
    failed: 'Com falha',
    chartSummary: (ok: number, failed: number) =>
      `Nos últimos 14 dias: ${ok} ${ok === 1 ? 'acesso' : 'acessos'} com sucesso e ${failed} ${failed === 1 ? 'tentativa' : 'tentativas'} com falha.`,
    chartTable: 'Acessos por dia',
    day: 'Dia',
    recent: 'Eventos recentes',
    noEvents: 'Nenhum evento ainda.',
    you: 'Seu acesso',
    lastSignIn: 'Seu último acesso antes deste',
    firstSignIn: 'Este é o seu primeiro acesso registrado.',
    from: (ip: string | null, agent: string | null) =>
      [ip && `de ${ip}`, agent && `com ${agent}`].filter(Boolean).join(', '),
    /** `password`: the person has one of their own; else theirs is the sign-in provider's. */
    failedSince: (count: number, password: boolean) =>
      `${count === 1 ? 'Houve 1 tentativa' : `Houve ${count} tentativas`} de acesso com falha na sua conta desde então. ${
        password
          ? 'Se não foi você, troque a senha em Minha conta.'
          : 'Se não foi você, troque a senha da sua conta no provedor de identidade e avise quem administra o Painel.'
      }`,
    error: 'Não foi possível carregar esta parte do painel.',
  },
  /** The signed-in person's own cards: their sign-ins, sessions and second factors. */
  mine: {
    recentSignIns: 'Últimos acessos',
    unknownBrowser: 'Navegador desconhecido',
    sessions: 'Suas sessões',
    openSessions: (count: number) =>
      count === 1
        ? 'Só esta sessão está aberta.'
        : `Há ${count} sessões abertas na sua conta, contando esta.`,
    endSessions: 'Ver e encerrar sessões em Minha conta',
    seeSessions: 'Ver sessões em Minha conta',
    secondFactor: 'Verificação em duas etapas',
    on: 'Ativada',
    off: 'Desativada',
    onBecause: (password: boolean) =>
      password
        ? 'Além da senha, entrar pede um segundo fator.'
        : 'Além do provedor de identidade, entrar pede um segundo fator.',
    offBecause: (password: boolean) =>
      password
        ? 'Só a senha protege a sua conta.'
        : 'Só a entrada no provedor de identidade protege a sua conta.',
    app: 'Aplicativo autenticador',
    appOn: 'ativado',
    appOff: 'desativado',
    passkeys: 'Chaves de acesso',
    recoveryCodes: 'Códigos de recuperação',
    fewCodes: (count: number) =>
      count === 0
        ? 'Você não tem mais códigos de recuperação. Gere novos em Minha conta.'
        : count === 1
          ? 'Resta só 1 código de recuperação. Gere novos em Minha conta.'
          : `Restam só ${count} códigos de recuperação. Gere novos em Minha conta.`,
    setUp: 'Ativar em Minha conta',
    manage: 'Gerenciar em Minha conta',
  },
} as const
