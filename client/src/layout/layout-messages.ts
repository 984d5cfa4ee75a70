/**
 * The words of the layout (header, breadcrumb, footer), in Brazilian Portuguese: apart from messages.ts so that they are in
 * its chunk only, not in the shared chunk every cold load (the sign-in page's too) downloads.
 */
export const layoutMessages = {
  header: {
    toggleSidebar: 'Mostrar ou ocultar o menu lateral',
    closeSidebar: 'Fechar o menu lateral',
    userMenu: 'Menu do usuário',
    profile: 'Minha conta',
    signedInAs: 'Conectado como',
    signOut: 'Sair',
  },
  sidebar: {
    pending: (count: number) =>
      count === 1 ? 'cadastro aguardando aprovação' : 'cadastros aguardando aprovação',
    deletionRequests: (count: number) =>
      count === 1
        ? 'pedido de exclusão de conta aguardando decisão'
        : 'pedidos de exclusão de conta aguardando decisão',
  },
  breadcrumb: {
    label: 'Você está em',
    home: 'Início',
    /** An address no screen has. */
    unknown: 'Página não encontrada',
  },
  noPermission: 'Sem permissão: seu papel não dá acesso a esta tela.',
  footer: {
    text: 'Painel administrativo',
    version: 'Versão',
  },
} as const
