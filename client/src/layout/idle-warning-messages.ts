/**
 * The pt-BR texts of the idle warning: in its own chunk (idle-warning.tsx, loaded after the
 * layout), not in the layout's.
 */
export const idleWarningMessages = {
  title: 'Sua sessão vai expirar…',
  body: (seconds: number) =>
    seconds >= 60
      ? `Por falta de atividade, sua sessão termina em ${Math.ceil(seconds / 60)} minuto${Math.ceil(seconds / 60) === 1 ? '' : 's'}.`
      : `Por falta de atividade, sua sessão termina em ${seconds} segundo${seconds === 1 ? '' : 's'}.`,
  keep: 'Continuar conectado',
  leave: 'Sair',
  failed: 'Não foi possível renovar a sessão. Tente de novo.',
} as const
