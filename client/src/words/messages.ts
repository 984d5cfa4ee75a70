/** Every text the panel shows, in Brazilian Portuguese. Screens take their words from here. */
export const messages = {
  app: {
    name: 'Painel',
    description: 'Painel administrativo da equipe',
    loading: 'Carregando…',
    skipToContent: 'Pular para o conteúdo',
  },
  nav: {
    label: 'Navegação principal',
  },
  colorMode: {
    label: 'Tema',
    group: 'Tema das cores',
    choose: 'Escolher tema',
    light: 'Claro',
    dark: 'Escuro',
    auto: 'Automático',
  },
  forms: {
    required: 'Campo obrigatório',
    sending: 'Enviando…',
    passwordHint: (min: number, max: number) => `De ${min} a ${max} caracteres.`,
    strength: {
      label: (level: string) => `Força da senha: ${level}.`,
      levels: ['muito fraca', 'fraca', 'razoável', 'boa', 'forte'] as const,
    },
    fixErrors: 'Corrija os campos destacados.',
    emailRequired: 'Informe o e-mail.',
    emailInvalid: 'Informe um e-mail válido, como nome@empresa.com.br.',
    passwordRequired: 'Informe a senha.',
    confirmRequired: 'Confirme a senha.',
    passwordsDiffer: 'As senhas não conferem.',
  },
  login: {
    title: 'Entrar',
    subtitle: 'Acesse o painel com sua conta da equipe.',
    email: 'E-mail',
    password: 'Senha',
    submit: 'Entrar',
    submitting: 'Entrando…',
    forgotPassword: 'Esqueci minha senha',
    noAccount: 'Ainda não tem acesso?',
    register: 'Solicitar cadastro',
  },
  /** The password field's (sign-in, registration, recovery, Minha conta). */
  passwordField: {
    show: 'Mostrar senha',
    capsLock: 'Caps Lock está ativado.',
  },
  routeError: {
    title: 'Erro inesperado na aplicação',
    text: 'Não foi possível mostrar esta página.',
    chunkText:
      'Não foi possível carregar esta parte do painel. Uma nova versão pode ter sido publicada, ou a conexão caiu.',
    details: 'Detalhes',
    reload: 'Recarregar página',
    home: 'Ir para o início',
  },
  api: {
    network: 'Sem conexão com o servidor. Verifique sua rede e tente novamente.',
    unexpected: (status: number) =>
      `O servidor respondeu de forma inesperada (HTTP ${status}). Tente novamente.`,
  },
} as const
