/**
 * The pt-BR words of a list of audit events (AuditEventList), which Auditoria, Início and an
 * account's page show: apart from messages-admin.ts so that the Equipe screen does not carry them.
 */
export const auditEventMessages = {
  /** The author of an event no person caused. */
  system: 'Sistema',
  /** How an event's details read (the log stores them as keys and codes). */
  details: {
    change: (from: string, to: string) => `de ${from} para ${to}`,
    method: { password: 'com senha' } as Record<string, string>,
    sessions: (count: number) =>
      count === 1 ? '1 sessão encerrada' : `${count} sessões encerradas`,
    by: { admin: 'por um administrador' } as Record<string, string>,
    reason: 'motivo',
    role: 'papel',
    email: 'e-mail',
  },
} as const
