/**
 * The pt-BR texts of the sign-in's second step (code or passkey). Loaded with that step, not with
 * the cold login page (its budget).
 */
export const secondFactorMessages = {
  title: 'Verificação em duas etapas',
  intro: 'Digite o código de 6 dígitos que o aplicativo autenticador mostra agora.',
  introRecovery: 'Digite um dos seus códigos de recuperação. Cada um serve uma vez.',
  code: 'Código de verificação',
  recoveryCode: 'Código de recuperação',
  submit: 'Verificar',
  submitting: 'Verificando…',
  codeRequired: 'Informe o código.',
  codeFormat: 'O código do aplicativo tem 6 dígitos.',
  useRecovery: 'Usar um código de recuperação',
  useApp: 'Usar o código do aplicativo',
  usePasskey: 'Usar chave de acesso',
  back: 'Voltar e entrar com outra conta',
  passkeyFailed: 'A chave de acesso não foi usada. Tente de novo ou use outro método.',
} as const
