/**
 * The words of the password recovery page, in Brazilian Portuguese: apart from messages.ts so
 * that they are in that page's chunk only, not in the shared one every cold load (the sign-in
 * page's too) downloads.
 */
export const recoverMessages = {
  recover: {
    title: 'Recuperar senha',
    subtitle: 'Informe o e-mail da sua conta. Enviaremos um link para você criar uma nova senha.',
    email: 'E-mail',
    submit: 'Enviar link',
    sentTitle: 'Verifique seu e-mail',
    sent: (email: string) =>
      `Se houver uma conta com o e-mail ${email}, enviamos para ele um link para criar uma nova senha. O link vale por 30 minutos e só pode ser usado uma vez.`,
    wrongAddress: 'O endereço está errado? Peça de novo',
    backToLogin: 'Voltar para a tela de entrada',
  },
  reset: {
    title: 'Criar nova senha',
    subtitle:
      'Escolha a nova senha da sua conta. Ao salvar, as sessões abertas com a senha antiga são encerradas.',
    account: 'Para a conta',
    password: 'Nova senha',
    confirmPassword: 'Confirmar nova senha',
    submit: 'Salvar nova senha',
    doneTitle: 'Senha alterada',
    done: 'Sua senha foi alterada. Entre com a nova senha.',
    goToLogin: 'Entrar com a nova senha',
    requestNewLink: 'Pedir um novo link',
    checking: 'Verificando o link…',
    invalidTitle: 'Link inválido ou expirado',
    invalid:
      'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo link: ele chega por e-mail em instantes.',
  },
  invitation: {
    account: 'Convite para',
    title: 'Criar sua senha',
    subtitle: 'Você recebeu um convite para o Painel. Escolha a senha com que vai entrar.',
    submit: 'Criar senha',
    doneTitle: 'Senha criada',
    done: 'Sua senha foi criada. Entre com o seu e-mail e a nova senha.',
    requestNewLink: 'O link expirou? Peça um novo',
  },
} as const
