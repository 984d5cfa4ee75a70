import type { OpenTeams, Registered, RegisterBody } from '../../../../common/api/auth'
import { apiRequest } from '../../session/api-client'

/** Asking for an account (POST /api/auth/register, common/api/auth.ts), naming a team or not. */
export function requestRegistration(
  name: string,
  email: string,
  password: string,
  teamId?: string,
) {
  return apiRequest<Registered>('auth/register', {
    method: 'POST',
    body: { name, email, password, ...(teamId ? { teamId } : {}) } satisfies RegisterBody,
  })
}

/** GET /api/auth/teams: the teams open for registration (none from a backend without teams). */
export const listOpenTeams = (signal: AbortSignal) =>
  apiRequest<OpenTeams>('auth/teams', { signal })
