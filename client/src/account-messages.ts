/**
 * The pt-BR texts of "Minha conta"'s sessions, second factor and passkeys, and of the idle
 * warning. Apart from messages.ts, which is in the login page's bundle (it has a budget).
 */
export const accountMessages = {
  cancel: 'Cancelar',
  retry: 'Tentar de novo',
  loading: 'Carregando…',
  sessions: {
    title: 'Sessões abertas',
    intro: 'Os navegadores em que sua conta está conectada agora.',
    current: 'Esta sessão',
    unknownBrowser: 'Navegador desconhecido',
    unknownAddress: 'endereço desconhecido',
    address: 'Endereço',
    lastSeen: 'Último acesso',
    since: 'Desde',
    end: 'Encerrar',
    endLabel: (browser: string, lastSeen: string) =>
      `Encerrar a sessão de ${browser} (último acesso em ${lastSeen})`,
    endOthers: 'Encerrar as outras sessões',
    ended: 'Sessão encerrada.',
    othersEnded: 'As outras sessões foram encerradas.',
    onlyThis: 'Só esta sessão está aberta.',
  },
  idle: {
    title: 'Sua sessão vai expirar…',
    body: (seconds: number) =>
      seconds >= 60
        ? `Por falta de atividade, sua sessão termina em ${Math.ceil(seconds / 60)} minuto${Math.ceil(seconds / 60) === 1 ? '' : 's'}.`
        : `Por falta de atividade, sua sessão termina em ${seconds} segundo${seconds === 1 ? '' : 's'}.`,
    keep: 'Continuar conectado',
    leave: 'Sair',
    failed: 'Não foi possível renovar a sessão. Tente de novo.',
  },
} as const
