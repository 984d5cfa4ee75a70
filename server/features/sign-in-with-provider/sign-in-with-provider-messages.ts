import type { Refusal } from './provider-sign-in'

/**
 * What the login page says after a sign-in at a provider did not work (pt-BR), for the refusals
 * of this core; the wiring adds those of the account (pending approval, disabled), which have
 * their words in server/messages.ts already. Each says what the person can do.
 */
export const REFUSAL_MESSAGES: Readonly<Record<Refusal, string>> = {
  cancelled: 'A entrada foi cancelada no provedor. Tente de novo quando quiser.',
  provider_error: 'O provedor de identidade não concluiu a entrada. Tente de novo.',
  invalid_callback: 'O retorno do provedor veio incompleto. Tente entrar de novo.',
  link_expired: 'Essa tentativa de entrada expirou ou já foi usada. Entre de novo.',
  provider_unreachable:
    'Não foi possível falar com o provedor de identidade agora. Tente de novo em alguns minutos ou entre com sua senha.',
  code_rejected: 'O provedor recusou a conclusão da entrada. Entre de novo.',
  token_rejected: 'A resposta do provedor não pôde ser confirmada. Entre de novo.',
  domain_not_allowed:
    'Esta conta não pode entrar no painel: o domínio do e-mail não é permitido. Use a conta da organização.',
}
