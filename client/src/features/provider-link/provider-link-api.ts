import type {
  LinkInvitation,
  LinkInvitationStart,
  LinkInvitationTokenBody,
} from '../../../../common/api/provider-links'
import { apiRequest } from '../../session/api-client'

/** Whose account and which provider the link is for (nothing is used up by reading it). */
export const readLinkInvitation = (body: LinkInvitationTokenBody, signal?: AbortSignal) =>
  apiRequest<LinkInvitation>('auth/oidc/link-invitation', {
    method: 'POST',
    body,
    ...(signal ? { signal } : {}),
  })

/** The provider's page to go to, with the link sealed into this browser's pending sign-in. */
export const startLinkInvitation = (body: LinkInvitationTokenBody) =>
  apiRequest<LinkInvitationStart>('auth/oidc/link-invitation/start', { method: 'POST', body })
