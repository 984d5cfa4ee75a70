import type { Role } from '../../../common/api/account'
import type { StaffStatus } from '../../../common/api/staff'
import type { RoleScope } from '../../../common/permissions'

/**
 * The pt-BR words that more than one of the signed-in screens shows (Início, Equipe, an account's
 * page, Auditoria). Each screen's own words are in its feature's *-messages.ts
 * (staff-messages.ts, audit-messages.ts, dashboard-messages.ts), so that a chunk carries only what it shows: the
 * dashboard's cold load has a budget.
 */
export const adminMessages = {
  refresh: 'Atualizar',
  /** Beside a list kept on screen after its refresh failed (offline, say): the failure, then this. */
  stale: (failure: string) => `${failure} A lista abaixo pode estar desatualizada.`,
  loading: 'Carregando…',
  retry: 'Tentar de novo',
  cancel: 'Cancelar',
  you: '(você)',
  roles: { admin: 'Administrador', staff: 'Equipe' } satisfies Record<Role, string>,
  /** What a role's permissions reach (Papéis, Minha conta). */
  scopes: {
    all: 'Todas as pessoas',
    team: 'Só o próprio time',
  } satisfies Record<RoleScope, string>,
  /** A person with no team. */
  noTeam: 'Sem time',
  team: 'Time',
  members: 'Pessoas',
  statuses: {
    pending: 'Aguardando aprovação',
    invited: 'Convite pendente',
    active: 'Ativa',
    disabled: 'Desativada',
  } satisfies Record<StaffStatus, string>,
  locked: 'Bloqueada',
  never: 'Nunca',
  /** The phone's button that shows a screen's filters, with how many are in use. */
  filters: (active: number) => (active === 0 ? 'Filtros' : `Filtros (${active})`),
  clearFilters: 'Limpar filtros',
  /** The link from the dashboard's and an account's events to the whole log. */
  seeAudit: 'Ver toda a auditoria',
} as const
