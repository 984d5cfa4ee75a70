/** The words of the 500 page (apart from the 404 page's: see not-found-messages.ts). */
export const serverErrorMessages = {
  code: '500',
  title: 'Erro no servidor',
  text: 'Algo deu errado do nosso lado. Tente novamente em alguns instantes.',
  back: 'Voltar ao início',
  retry: 'Voltar à página anterior',
} as const
