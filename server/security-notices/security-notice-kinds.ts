import type { AuditDetails, AuditType } from '../../common/api/audit'

/**
 * Which audit events tell the account's owner by mail (issue 30, docs/personal-data.md). The
 * notice follows the event rather than each route that makes it: every path that records one of
 * these changes (the person's own, an admin's, a sign-in provider's) tells the owner, and a new
 * path cannot forget to.
 */
export type SecurityNoticeKind =
  | 'new_browser'
  | 'mfa_enabled'
  | 'mfa_disabled'
  | 'recovery_codes_regenerated'
  | 'recovery_code_used'
  | 'passkey_added'
  | 'passkey_removed'
  | 'locked'
  | 'role_changed'
  | 'team_changed'
  | 'provider_linked'
  | 'provider_unlinked'

/** The outbox's kind for a notice: composed by its sender from the event (features/security-notices). */
export const SECURITY_NOTICE_MAIL = 'security_notice'

const ALWAYS: ReadonlySet<string> = new Set<SecurityNoticeKind>([
  'mfa_enabled',
  'mfa_disabled',
  'recovery_codes_regenerated',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'locked',
  'role_changed',
  'team_changed',
  'provider_linked',
  'provider_unlinked',
])

/**
 * The notice an event calls for, if any. A sign-in tells the owner only when it came from a
 * browser new to the account (sign-in-steps/complete-sign-in.ts marks it `new_browser`).
 */
export function securityNoticeKind(
  type: AuditType,
  details: AuditDetails,
): SecurityNoticeKind | undefined {
  if (type === 'sign_in') return details.new_browser === true ? 'new_browser' : undefined
  return ALWAYS.has(type) ? (type as SecurityNoticeKind) : undefined
}

/** The one notice a person may turn off (GET/PATCH /api/me/notices); the others always go. */
export const OPTIONAL_NOTICES: ReadonlySet<SecurityNoticeKind> = new Set(['new_browser'])
