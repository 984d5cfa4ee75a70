/**
 * Every pt-BR text the server's API answers with, in one table, by error code: what people read
 * when something is refused. Mail has its own texts (mail/messages.ts); logs are in English.
 */
export const apiMessages = {
  // Sign-in and accounts.
  invalid_credentials: 'E-mail ou senha incorretos.',
  pending_approval: 'Seu cadastro ainda aguarda a aprovação de um administrador.',
  account_disabled: 'Sua conta está desativada. Fale com um administrador.',
  unauthenticated: 'Sua sessão terminou ou não é válida. Entre novamente.',
  // Why a session ended (common/session-end.ts): the login page says it.
  session_expired: 'Sua sessão expirou. Entre novamente.',
  session_idle: 'Sua sessão foi encerrada por inatividade. Entre novamente.',
  session_revoked: 'Sua sessão foi encerrada em outro lugar. Entre novamente.',
  session_account_disabled: 'Sua conta foi desativada por um administrador.',
  session_password_changed:
    'Sua senha foi alterada em outro lugar. Entre novamente com a nova senha.',
  invalid_or_expired_token:
    'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
  wrong_password: 'A senha atual não confere.',
  wrong_code:
    'O código não confere ou já foi usado. Confira o aplicativo autenticador ou use um código de recuperação.',
  same_email: 'Este já é o e-mail da sua conta.',
  invalid_or_expired_email_link:
    'Este link de troca de e-mail é inválido, já foi usado, foi cancelado ou expirou.',
  invalid_code: 'Código incorreto ou já usado. Confira o aplicativo autenticador e tente de novo.',
  challenge_expired:
    'A verificação expirou ou teve tentativas demais. Entre novamente com sua senha.',
  no_pending_totp: 'Comece a ativação do aplicativo autenticador de novo.',
  mfa_already_on:
    'O aplicativo autenticador já está ativado. Desative-o antes de configurar outro.',
  mfa_not_on: 'O aplicativo autenticador não está ativado.',
  mfa_setup_required:
    'Ative a verificação em duas etapas (aplicativo autenticador ou chave de acesso) antes de continuar.',
  invalid_passkey:
    'A chave de acesso não foi aceita. Tente de novo ou entre com seu e-mail e senha.',
  passkey_not_added:
    'A chave de acesso não pôde ser adicionada (o pedido expirou ou a resposta não confere). Tente de novo.',
  passkey_not_found: 'Chave de acesso não encontrada: ela pode já ter sido removida.',
  invalid_email: 'Informe um e-mail válido.',
  missing_name: 'Informe seu nome.',
  session_not_found: 'Sessão não encontrada: ela pode já ter sido encerrada.',
  invalid_or_expired_code:
    'Essa entrada pelo provedor expirou ou já foi usada. Entre de novo pelo provedor.',
  password_sign_in_off:
    'A entrada com senha está desligada neste painel: entre com a conta da organização, pelo botão da página de entrada.',
  link_expired:
    'O pedido de vínculo expirou ou já foi usado. Entre de novo pelo provedor para vincular.',
  link_needs_code:
    'Sua conta usa só chave de acesso como segundo fator, e ela não serve para vincular o provedor. Peça a um administrador para vincular, ou ative o aplicativo autenticador e tente de novo.',
  provider_not_found: 'Este provedor de identidade não está configurado.',
  registration_closed:
    'O cadastro com senha está desligado: entre com a conta da organização pelo botão da página de entrada.',
  provider_link_not_found: 'Vínculo não encontrado: ele pode já ter sido removido.',
  invalid_or_expired_link_invitation:
    'Este link para vincular o provedor é inválido, já foi usado, foi substituído por um mais novo ou expirou. Peça um novo a quem administra o Painel.',
  provider_unreachable:
    'Não foi possível falar com o provedor de identidade agora. Tente de novo em alguns minutos.',
  provider_already_linked: 'Esta pessoa já entra por este provedor: não há o que vincular.',
  not_linkable:
    'Esta conta não está ativa: só uma conta ativa (ou com convite pendente) recebe o link para vincular um provedor.',
  last_sign_in_method:
    'Não é possível desvincular: seria a última forma de entrar na sua conta. Crie uma senha ou adicione uma chave de acesso antes.',
  // Staff administration.
  own_account:
    'Você não pode fazer isso com a sua própria conta; para mudar a sua conta, use "Minha conta".',
  last_admin: 'Não é possível: o Painel ficaria sem nenhum administrador ativo.',
  not_pending: 'Este cadastro já não está pendente: desative a conta em vez de removê-la.',
  not_active: 'Esta conta não está ativa: ative-a antes de enviar um link de nova senha.',
  not_invited:
    'Esta pessoa não tem um convite pendente: ela já criou a sua senha, ou a conta não está ativa.',
  email_taken: 'Já existe uma conta com este e-mail.',
  // Bulk actions: why one person of the list was left as they were.
  not_awaiting_approval: 'Esta conta não está aguardando aprovação.',
  refused_already: 'Este cadastro já tinha sido recusado e removido.',
  reason_only_to_refuse: 'O motivo só vale para recusar cadastros.',
  account_not_found: 'Conta não encontrada.',
  missing_reason: 'Informe o motivo da recusa.',
  deletion_request_not_found:
    'Não há pedido de exclusão aberto para esta conta: ele pode já ter sido decidido.',
  invalid_account_id: 'Identificador de conta inválido.',
  permission_missing: 'Seu papel não permite fazer isso.',
  role_not_grantable: 'Você não pode dar um papel com mais permissões ou alcance que o seu.',
  team_out_of_reach: 'Você só pode colocar pessoas no seu próprio time.',
  outranked: 'O papel desta pessoa tem permissões que o seu não tem: peça a um administrador.',
  unknown_role: 'Papel não encontrado.',
  unknown_team: 'Time não encontrado.',
  role_not_found: 'Papel não encontrado.',
  team_not_found: 'Time não encontrado.',
  role_name_taken: 'Já existe um papel com este nome.',
  team_name_taken: 'Já existe um time com este nome.',
  scim_token_not_found: 'Token de provisionamento não encontrado.',
  built_in_role: 'Os papéis Administrador e Equipe não podem ser alterados nem excluídos.',
  role_in_use: 'Há pessoas com este papel: dê outro papel a elas antes de excluí-lo.',
  // Any route.
  not_found: 'Recurso não encontrado.',
  invalid_input: 'Requisição inválida.',
  forbidden: 'Acesso negado.',
  too_many_requests: 'Muitas requisições. Tente novamente em instantes.',
  service_unavailable: 'Serviço indisponível no momento. Tente novamente em instantes.',
  overloaded: 'O servidor está sobrecarregado. Tente novamente em alguns segundos.',
  restarting: 'O servidor está sendo reiniciado. Tente novamente em alguns segundos.',
  bad_gateway: 'O serviço de dados não respondeu. Tente novamente em instantes.',
  internal_error: 'Erro interno do servidor.',
  // Bodies Fastify refuses before a route sees them.
  body_too_large: 'Dados grandes demais.',
  wrong_media_type: 'Envie os dados como JSON (Content-Type: application/json).',
  bad_content_length: 'Tamanho da requisição inválido.',
  empty_body: 'Dados ausentes: envie um objeto JSON.',
  invalid_json: 'JSON inválido.',
  nested_too_deep: 'Dados inválidos: estruturas aninhadas em excesso.',
  // Refusals at the HTTP level, before any route runs (http/protocol-errors.ts).
  method_not_allowed: 'Método não permitido.',
  request_timeout: 'A requisição demorou demais para chegar. Tente novamente.',
  uri_too_long: 'Endereço longo demais.',
  headers_too_large: 'Cabeçalhos da requisição grandes demais.',
} as const

/** "em 15 minutos": how long to wait, in words. */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`
}

export const tooManyAttemptsMessage = (seconds: number) =>
  `Muitas tentativas. Tente novamente em ${waitInWords(seconds)}.`

/** What is wrong with a body, from the first schema error (field names already made safe). */
export const validationMessages = {
  generic: 'Dados inválidos.',
  notAnObject: 'Dados inválidos: envie um objeto JSON.',
  missingField: (field: string) => `Dados inválidos: falta o campo ${field}.`,
  unknownField: (field: string) => `Dados inválidos: campo desconhecido ${field}.`,
  wrongType: (field: string, type: string) =>
    `Dados inválidos: o campo ${field} deve ser do tipo ${type}.`,
  wrongLength: (field: string) =>
    `Dados inválidos: o campo ${field} tem tamanho fora do permitido.`,
  notAccepted: (field: string) => `Dados inválidos: o campo ${field} não é aceito.`,
}
