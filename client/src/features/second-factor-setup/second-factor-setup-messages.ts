/**
 * The words of the second-factor setup screen (MFA_REQUIRED), in Brazilian Portuguese: in its own
 * chunk only.
 */
export const setupMessages = {
  title: 'Ative a verificação em duas etapas',
  why: 'Para continuar, sua conta precisa de uma segunda etapa ao entrar: um código do aplicativo autenticador ou uma chave de acesso. Assim, quem descobrir a sua senha ainda não consegue entrar no Painel.',
  whyAdmins:
    'Administradores aprovam, desativam e promovem contas; por isso, nessas contas, a senha sozinha não basta.',
  how: 'Ative uma das opções abaixo. Assim que ela estiver ativa, você segue para onde ia.',
  signOutHint: 'Prefere fazer isso depois?',
  signOut: 'Sair',
} as const
