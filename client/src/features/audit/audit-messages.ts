/**
 * The pt-BR words of the Auditoria screen (its filters, export and paging): apart from
 * words/admin-messages.ts so that only that screen's chunk carries them. How one event reads is
 * in common/audit-event-words.ts, which the dashboard, an account's page and the CSV share.
 */
export const auditMessages = {
  title: 'Auditoria',
  intro: 'Quem fez o quê, em qual conta, de onde. Os mais recentes primeiro.',
  type: 'Tipo',
  anyType: 'Todos os tipos',
  person: 'Conta',
  actor: 'Autor',
  anyone: 'Qualquer pessoa',
  from: 'De',
  to: 'Até',
  /** On "Até" when it comes before "De": no event can be in such a range. */
  rangeInverted: '«Até» não pode ser anterior a «De».',
  export: 'Exportar CSV',
  exporting: 'Exportando…',
  more: 'Carregar mais',
  moreFailed: (failure: string) => `Não foi possível carregar mais eventos. ${failure}`,
  empty: 'Nenhum evento com estes filtros.',
  unknownAccount: 'Conta desconhecida',
  listLabel: 'Eventos da auditoria',
} as const
