import type { ProviderSignInError } from '../../../../common/provider-sign-in-errors'

/**
 * What the login page says after a sign-in at a provider did not work (pt-BR), by the code the
 * server put in `sso_error` (common/provider-sign-in-errors.ts). Each says what the person can do.
 */
export const PROVIDER_SIGN_IN_MESSAGES: Readonly<Record<ProviderSignInError, string>> = {
  cancelled: 'A entrada foi cancelada no provedor. Tente de novo quando quiser.',
  provider_error: 'O provedor de identidade não concluiu a entrada. Tente de novo.',
  invalid_callback: 'O retorno do provedor veio incompleto. Tente entrar de novo.',
  link_expired: 'Essa tentativa de entrada expirou ou já foi usada. Entre de novo.',
  provider_unreachable:
    'Não foi possível falar com o provedor de identidade agora. Tente de novo em alguns minutos ou entre com sua senha.',
  code_rejected: 'O provedor recusou a conclusão da entrada. Entre de novo.',
  token_rejected: 'A resposta do provedor não pôde ser confirmada. Entre de novo.',
  userinfo_failed:
    'O provedor de identidade não informou os seus dados agora. Tente de novo em alguns minutos.',
  userinfo_mismatch: 'A resposta do provedor não pôde ser confirmada. Entre de novo.',
  domain_not_allowed:
    'Esta conta não pode entrar no painel: o domínio do e-mail não é permitido. Use a conta da organização.',
  pending_approval:
    'Seu cadastro foi recebido e aguarda a aprovação de um administrador. Você poderá entrar assim que o cadastro for aprovado.',
  account_disabled: 'Sua conta está desativada. Fale com um administrador.',
  link_required:
    'Já existe uma conta no painel com o e-mail que o provedor informou, mas o provedor não confirmou que o e-mail é seu, então nada foi vinculado. Confirme o e-mail no provedor e tente de novo, ou fale com um administrador.',
  email_missing:
    'O provedor não informou um e-mail confirmado. Confirme seu e-mail no provedor ou fale com um administrador.',
  too_many_attempts: 'Muitas tentativas de entrada. Aguarde alguns minutos e tente de novo.',
  invitation_expired:
    'Este link para vincular o provedor já foi usado, foi substituído por um mais novo ou expirou, então nada foi vinculado. Peça um novo a quem administra o Painel.',
  linked_elsewhere:
    'A conta com que você entrou no provedor já está vinculada a outra pessoa do Painel, então nada foi vinculado. Abra o link de novo e entre no provedor com a sua conta, ou fale com quem administra o Painel.',
}

/** The code a provider's return brought, as words: the `sso_error` parameter's value. */
export function providerSignInMessage(code: string | null): string | null {
  if (code === null) return null
  return Object.hasOwn(PROVIDER_SIGN_IN_MESSAGES, code)
    ? PROVIDER_SIGN_IN_MESSAGES[code as ProviderSignInError]
    : PROVIDER_SIGN_IN_MESSAGES.invalid_callback
}

/**
 * `link_required` while passwords are on: the login form below links the provider to the account
 * once its password (and second factor) is right (client/src/features/sign-in/login-page.tsx).
 */
export const LINK_BY_PASSWORD_MESSAGE =
  'Já existe uma conta no painel com o e-mail que o provedor informou, mas o provedor não confirmou que o e-mail é seu. Para vincular o provedor a essa conta, entre uma vez com o e-mail e a senha dela. Depois disso, o provedor basta para entrar.'
