/**
 * The words of the 500 page, in Brazilian Portuguese: apart from messages.ts so that they are in
 * its chunk only, not in the shared chunk every cold load (the sign-in page's too) downloads.
 */
export const serverErrorMessages = {
  serverError: {
    code: '500',
    title: 'Erro no servidor',
    text: 'Algo deu errado do nosso lado. Tente novamente em alguns instantes.',
    back: 'Voltar ao início',
    retry: 'Voltar à página anterior',
  },
} as const
