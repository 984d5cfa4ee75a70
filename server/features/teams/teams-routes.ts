import type { FastifyRequest } from 'fastify'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import {
  IdParamsSchema,
  TeamAnswerSchema,
  TeamBodySchema,
  TeamChangeBodySchema,
  TeamListSchema,
} from '../../../common/api/roles'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { accountIdFrom, lockAdminChanges } from '../../accounts/account-administration'
import { party, recordAudit } from '../../audit-log/record-audit'
import { answerWithoutBody } from '../../http/answer-without-body'
import { apiError } from '../../http/errors'
import { requestOrigin } from '../../http/request-origin'
import { nameKey, unlessNameTaken } from '../../db/name-key'
import {
  findTeamItem,
  listTeams,
  lockTeam,
  moveMembersOut,
  moveMembersOutInSteps,
} from '../../roles/team-store'

const notFound = () => apiError(404, 'team_not_found', 'not_found')

const nameTaken = () => apiError(409, 'team_name_taken')

const audit = (request: FastifyRequest) => ({
  actor: party(request.account!),
  origin: requestOrigin(request),
})

/**
 * The teams, under /api/teams (common/api/roles.ts): read by any signed-in person (the screens
 * name teams; a registration's list is GET /api/auth/teams), shaped with teams.manage. A deleted
 * team leaves its people with no team (the foreign key's `set null`).
 */
export default guardedRoutes([signedIn], async (app, { db, now }) => {
  app.get(
    '/',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'The teams, with their managers and member counts',
        description:
          'Any signed-in person (teams are named on every screen); managers are the members whose role has scope team and staff.approve.',
        security: bearer,
        response: { 200: TeamListSchema, ...errorAnswers(401) },
      },
    },
    async () => ({ teams: await listTeams(db) }),
  )

  app.post(
    '/',
    {
      schema: {
        'x-permission': 'teams.manage',
        summary: 'Create a team',
        description: '409 team_name_taken (names are unique, case aside).',
        security: bearer,
        body: TeamBodySchema,
        response: { 201: TeamAnswerSchema, ...errorAnswers(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const name = request.body.name.trim()
      if (!name) throw apiError(400, 'invalid_input')
      const id = crypto.randomUUID()
      const open = request.body.open ?? false
      await unlessNameTaken(nameTaken, () =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('teams')
            .values({
              id,
              name,
              name_key: nameKey(name),
              description: request.body.description?.trim() ?? '',
              open,
            })
            .execute()
          await recordAudit(trx, {
            type: 'team_created',
            ...audit(request),
            details: { name, open },
          })
        }),
      )
      return reply.code(201).send({ team: (await findTeamItem(db, id))! })
    },
  )

  app.patch(
    '/:id',
    {
      schema: {
        'x-permission': 'teams.manage',
        summary: 'Change a team’s name, description or openness to registrations',
        description: '409 team_name_taken; 404.',
        security: bearer,
        params: IdParamsSchema,
        body: TeamChangeBodySchema,
        response: { 200: TeamAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const id = accountIdFrom(request.params.id)
      const change = request.body
      await unlessNameTaken(nameTaken, () =>
        db.transaction().execute(async (trx) => {
          const before = await lockTeam(trx, id)
          if (!before) throw notFound()
          const name = change.name === undefined ? before.name : change.name.trim()
          if (!name) throw apiError(400, 'invalid_input')
          const open = change.open ?? Boolean(before.open)
          const description = change.description?.trim() ?? before.description
          // The same values again change nothing, and the log records changes only.
          const same =
            name === before.name &&
            open === Boolean(before.open) &&
            description === before.description
          if (same) return
          await trx
            .updateTable('teams')
            // updated_at: a Group's meta.lastModified (features/provisioning/scim-groups.ts).
            .set({ name, name_key: nameKey(name), description, open, updated_at: now() })
            .where('id', '=', id)
            .execute()
          await recordAudit(trx, {
            type: 'team_updated',
            ...audit(request),
            details: { from_name: before.name, name, from_open: Boolean(before.open), open },
          })
        }),
      )
      return { team: (await findTeamItem(db, id))! }
    },
  )

  app.delete(
    '/:id',
    {
      schema: {
        'x-permission': 'teams.manage',
        summary: 'Delete a team (its people keep their accounts, with no team)',
        description: 'Audited with the team’s name and how many people it had; 404.',
        security: bearer,
        params: IdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const id = accountIdFrom(request.params.id)
      // SQLite: its people leave a hundred at a time first (none if there is no such team), the
      // first step recording that the deletion began.
      const movedEarlier = await moveMembersOutInSteps(db, id, (trx, details) =>
        recordAudit(trx, { type: 'team_deletion_started', ...audit(request), details }),
      )
      await db.transaction().execute(async (trx) => {
        // The team's row, then the admins' lock, as a Group's change takes them
        // (features/provisioning/scim-groups.ts), before the delete takes the team's people out
        // of it. Without the lock, a change moving two of them out at once (a directory's PATCH)
        // held the first one's row and waited for the second's, which the delete had taken
        // while it waited for the first's: a deadlock, and a 500, on PostgreSQL.
        if (!(await lockTeam(trx, id))) throw notFound()
        await lockAdminChanges(trx)
        const members = movedEarlier + (await moveMembersOut(trx, id))
        const team = await trx
          .deleteFrom('teams')
          .where('id', '=', id)
          .returning('name')
          .executeTakeFirst()
        if (!team) throw notFound()
        await recordAudit(trx, {
          type: 'team_deleted',
          ...audit(request),
          details: { name: team.name, members },
        })
      })
      return answerWithoutBody(reply, 204)
    },
  )
})
