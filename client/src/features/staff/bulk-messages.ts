import type { StaffBulkAction } from '../../../../common/api/staff'

/** The pt-BR words of Equipe's selection and its bulk actions (bulk-actions.tsx). */

/** "Ana", "Ana e Bruno", "Ana, Bruno e Carla". */
const list = (names: readonly string[]) =>
  new Intl.ListFormat('pt-BR', { style: 'long', type: 'conjunction' }).format(names)

const people = (count: number) => (count === 1 ? '1 pessoa' : `${count} pessoas`)

export const bulkMessages = {
  selectAll: 'Selecionar todos desta página',
  select: (name: string) => `Selecionar ${name}`,
  selected: (count: number) =>
    count === 1 ? '1 pessoa selecionada' : `${count} pessoas selecionadas`,
  toolbar: 'Ações para as pessoas selecionadas',
  clear: 'Limpar seleção',
  closeSummary: 'Fechar o resultado',
  /** The buttons: the action and how many of the selected people it applies to. */
  button: {
    approve: (count: number) => `Aprovar (${count})`,
    refuse: (count: number) => `Recusar (${count})`,
    disable: (count: number) => `Desativar (${count})`,
  } satisfies Record<StaffBulkAction, (count: number) => string>,
  buttonLabel: {
    approve: (count: number) => `Aprovar ${people(count)} selecionadas`,
    refuse: (count: number) => `Recusar ${people(count)} selecionadas`,
    disable: (count: number) => `Desativar ${people(count)} selecionadas`,
  } satisfies Record<StaffBulkAction, (count: number) => string>,
  confirm: {
    approve: (count: number) => ({
      title: count === 1 ? 'Aprovar 1 cadastro?' : `Aprovar ${count} cadastros?`,
      body: 'Estas pessoas poderão entrar no Painel, e cada uma receberá um e-mail avisando da aprovação:',
      button: 'Aprovar',
    }),
    refuse: (count: number) => ({
      title: count === 1 ? 'Recusar 1 cadastro?' : `Recusar ${count} cadastros?`,
      body: 'Os pedidos destas pessoas serão removidos, e cada uma receberá um e-mail:',
      button: 'Recusar',
    }),
    disable: (count: number) => ({
      title: count === 1 ? 'Desativar 1 conta?' : `Desativar ${count} contas?`,
      body: 'Estas pessoas não poderão mais entrar, e as sessões abertas delas serão encerradas agora:',
      button: 'Desativar',
    }),
  } satisfies Record<
    StaffBulkAction,
    (count: number) => { title: string; body: string; button: string }
  >,
  reason: 'Motivo (opcional, vai no e-mail de cada pessoa)',
  /** Who of the selection the action leaves out, because it does not apply to them. */
  leftOut: (count: number) =>
    count === 1
      ? '1 pessoa selecionada fica de fora: a ação não vale para ela.'
      : `${count} pessoas selecionadas ficam de fora: a ação não vale para elas.`,
  summary: {
    title: 'Resultado',
    done: {
      approve: (names: readonly string[]) =>
        `Cadastros aprovados (${names.length}): ${list(names)}.`,
      refuse: (names: readonly string[]) =>
        `Cadastros recusados (${names.length}): ${list(names)}.`,
      disable: (names: readonly string[]) =>
        `Contas desativadas (${names.length}): ${list(names)}.`,
    } satisfies Record<StaffBulkAction, (names: readonly string[]) => string>,
    already: {
      approve: (names: readonly string[]) =>
        `Já estavam aprovados antes, por outra pessoa (nada mudou): ${list(names)}.`,
      refuse: (names: readonly string[]) =>
        `Já estavam recusados antes, por outra pessoa (nada mudou): ${list(names)}.`,
      disable: (names: readonly string[]) =>
        `Já estavam desativadas antes (nada mudou): ${list(names)}.`,
    } satisfies Record<StaffBulkAction, (names: readonly string[]) => string>,
    failed: (count: number) =>
      count === 1 ? 'Não foi possível para 1 pessoa:' : `Não foi possível para ${count} pessoas:`,
    failedOne: (name: string, why: string) => `${name}: ${why}`,
  },
}
