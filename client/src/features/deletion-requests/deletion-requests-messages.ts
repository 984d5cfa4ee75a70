/** The words of the deletion requests' screen, in pt-BR. */
export const deletionRequestsMessages = {
  title: 'Pedidos de exclusão',
  intro:
    'Pessoas que pediram, em Minha conta, a exclusão da própria conta. Anonimizar apaga os dados pessoais; recusar mantém a conta e avisa a pessoa por e-mail, com o motivo.',
  none: 'Nenhum pedido de exclusão aberto.',
  total: (count: number) => (count === 1 ? '1 pedido aberto' : `${count} pedidos abertos`),
  askedAt: (when: string) => `Pedido em ${when}`,
  anonymise: 'Anonimizar',
  refuse: 'Recusar',
  anonymiseTitle: (name: string) => `Anonimizar a conta de ${name}?`,
  anonymiseBody: (name: string) =>
    `Não há como desfazer. O nome, o e-mail e os demais dados pessoais de ${name} são apagados do Painel, e todas as sessões dessa pessoa terminam agora. A auditoria mantém os eventos da conta sob um pseudônimo.`,
  anonymiseConfirm: 'Anonimizar definitivamente',
  anonymised: (name: string) => `A conta de ${name} foi anonimizada.`,
  refuseTitle: (name: string) => `Recusar o pedido de ${name}?`,
  refuseBody: (name: string) =>
    `A conta continua como está. ${name} recebe um e-mail com o motivo abaixo.`,
  reason: 'Motivo da recusa',
  missingReason: 'Informe o motivo da recusa.',
  refuseConfirm: 'Recusar pedido',
  refused: (name: string) =>
    `O pedido de ${name} foi recusado; a pessoa vai receber o motivo por e-mail.`,
} as const
