/**
 * The words of the 404 page. Each error page has its own file: a file two public pages share
 * would be put in the chunk every cold load downloads (scripts/build/common-chunk.ts).
 */
export const notFoundMessages = {
  code: '404',
  title: 'Página não encontrada',
  text: 'O endereço que você abriu não existe ou foi removido.',
  back: 'Voltar ao início',
} as const
