/**
 * The pt-BR words of a list of audit events (AuditEventList), which Auditoria, Início and an
 * account's page show: apart from messages-admin.ts so that the Equipe screen does not carry them.
 */
export const auditEventMessages = {
  /** The author of an event no person caused. */
  system: 'Sistema',
} as const
