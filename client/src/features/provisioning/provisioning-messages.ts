/** The Provisionamento screen's words (pt-BR). */
export const provisioningMessages = {
  title: 'Provisionamento',
  intro:
    'O diretório da organização (Microsoft Entra ID, Okta e outros compatíveis com SCIM 2.0) cria, atualiza e desativa as contas das pessoas por aqui. Dê a ele o endereço abaixo e um token.',
  baseUrl: 'Endereço SCIM',
  createHeading: 'Novo token',
  nameLabel: 'Nome do token',
  nameHint: 'Para quem é o token, por exemplo “Entra ID”. Aparece no registro de auditoria.',
  nameMissing: 'Dê um nome ao token.',
  create: 'Criar token',
  createdHeading: (name: string) => `Token “${name}” criado`,
  createdBody:
    'Copie o token agora e cole-o no diretório: ele não será mostrado de novo. Só um resumo dele fica guardado.',
  tokenLabel: 'Token',
  copy: 'Copiar token',
  copied: 'Token copiado.',
  copyFailed: 'Não foi possível copiar: selecione o token e copie.',
  done: 'Já copiei',
  listHeading: 'Tokens',
  listLabel: 'Tokens de provisionamento',
  empty: 'Nenhum token ainda.',
  columns: {
    name: 'Nome',
    createdAt: 'Criado em',
    createdBy: 'Criado por',
    lastUsedAt: 'Último uso',
  },
  neverUsed: 'Nunca usado',
  revoke: 'Revogar',
  revokeToken: (name: string) => `Revogar o token ${name}`,
  revokeTitle: (name: string) => `Revogar o token “${name}”?`,
  revokeBody:
    'O diretório que usa este token deixa de provisionar na hora. As contas que ele criou continuam como estão.',
  revoked: (name: string) => `Token “${name}” revogado.`,
}
