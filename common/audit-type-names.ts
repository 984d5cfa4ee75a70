import type { AuditType } from './api/audit'

/** The pt-BR name of each audit event type: the Auditoria screen and the CSV say the same. */
export const auditTypeNames: Record<AuditType, string> = {
  sign_in: 'Entrou',
  sign_in_failed: 'Falha ao entrar',
  locked: 'Conta bloqueada',
  unlocked: 'Conta desbloqueada',
  signed_out: 'Saiu',
  session_ended: 'Sessões encerradas',
  password_changed: 'Senha alterada',
  reset_requested: 'Redefinição de senha pedida',
  password_reset: 'Senha redefinida',
  registered: 'Cadastro recebido',
  approved: 'Cadastro aprovado',
  refused: 'Cadastro recusado',
  disabled: 'Conta desativada',
  reenabled: 'Conta reativada',
  role_changed: 'Papel alterado',
  invited: 'Convite enviado',
  mfa_enabled: 'Segundo fator ativado',
  mfa_disabled: 'Segundo fator desativado',
  passkey_added: 'Chave de acesso adicionada',
  passkey_removed: 'Chave de acesso removida',
  recovery_code_used: 'Código de recuperação usado',
  recovery_codes_regenerated: 'Códigos de recuperação gerados de novo',
  passkey_renamed: 'Chave de acesso renomeada',
}
