/**
 * The words of the registration page, in Brazilian Portuguese: apart from messages.ts so
 * that they are in that page's chunk only, not in the shared one every cold load (the sign-in
 * page's too) downloads.
 */
export const registerMessages = {
  register: {
    title: 'Solicitar cadastro',
    subtitle:
      'Preencha seus dados. Um administrador precisa aprovar o acesso antes que você possa entrar.',
    name: 'Nome',
    email: 'E-mail',
    password: 'Senha',
    confirmPassword: 'Confirmar senha',
    team: 'Time (opcional)',
    noTeam: 'Sem time',
    teamHint: 'Com um time, seu pedido também pode ser aprovado pela gestão do time.',
    submit: 'Solicitar cadastro',
    receivedTitle: 'Cadastro recebido',
    /** `team`: the team the person chose, whose managers may approve too; null without one. */
    received: (team: string | null) =>
      `Recebemos sua solicitação. ${
        team === null
          ? 'Um administrador precisa aprovar o acesso'
          : `Um administrador ou a gestão do time «${team}» precisa aprovar o acesso`
      }; depois disso, você entra com o e-mail e a senha informados. Se este e-mail já tiver uma conta, nada muda nela.`,
    haveAccount: 'Já tem acesso?',
    backToLogin: 'Entrar',
  },
} as const
