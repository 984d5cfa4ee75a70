import type { FastifyRequest } from 'fastify'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { IdParamsSchema } from '../../../common/api/roles'
import {
  ScimTokenBodySchema,
  ScimTokenCreatedSchema,
  ScimTokenListSchema,
} from '../../../common/api/scim-tokens'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { accountIdFrom } from '../../accounts/account-administration'
import { party, recordAudit } from '../../audit-log/record-audit'
import { answerWithoutBody } from '../../http/answer-without-body'
import { apiError } from '../../http/errors'
import { requestOrigin } from '../../http/request-origin'
import { scimBaseUrl } from './scim-http'
import { createScimToken } from './scim-token-store'

const notFound = () => apiError(404, 'scim_token_not_found', 'not_found')

const audit = (request: FastifyRequest) => ({
  actor: party(request.account!),
  origin: requestOrigin(request),
})

/**
 * The provisioning tokens, under /api/scim-tokens (common/api/scim-tokens.ts), for those who hold
 * provisioning.manage. The token is answered once, at its creation; a revoked token is deleted,
 * and the next call to /scim/v2 with it is a 401.
 */
export default guardedRoutes([signedIn], async (app, { db, now, config }) => {
  app.get(
    '/',
    {
      schema: {
        'x-permission': 'provisioning.manage',
        summary: 'The provisioning tokens (never the tokens themselves)',
        description:
          'Newest first, with who made each one and its last use (to the minute); and the base URL to give a directory with them.',
        security: bearer,
        response: { 200: ScimTokenListSchema, ...errorAnswers(401, 403) },
      },
    },
    async () => {
      const rows = await db
        .selectFrom('scim_tokens')
        .select(['id', 'name', 'created_at', 'created_by_name', 'last_used_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute()
      return {
        baseUrl: scimBaseUrl(config.publicUrl),
        tokens: rows.map((row) => ({
          id: row.id.toLowerCase(),
          name: row.name,
          createdAt: row.created_at.toISOString(),
          createdBy: row.created_by_name,
          lastUsedAt: row.last_used_at?.toISOString() ?? null,
        })),
      }
    },
  )

  app.post(
    '/',
    {
      schema: {
        'x-permission': 'provisioning.manage',
        summary: 'Create a provisioning token',
        description:
          'The token is in this answer only: give it to the directory (Entra ID, Okta) with the base URL /scim/v2.',
        security: bearer,
        body: ScimTokenBodySchema,
        response: { 201: ScimTokenCreatedSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const name = request.body.name.trim()
      if (!name) throw apiError(400, 'invalid_input')
      const created = await db.transaction().execute(async (trx) => {
        const at = now()
        const made = await createScimToken(trx, name, request.account!, at)
        await recordAudit(trx, {
          type: 'scim_token_created',
          ...audit(request),
          details: { name },
          at,
        })
        return made
      })
      return reply.code(201).send({ id: created.id, name, token: created.token })
    },
  )

  app.delete(
    '/:id',
    {
      schema: {
        'x-permission': 'provisioning.manage',
        summary: 'Revoke a provisioning token',
        description: 'At once: the next call with it is a 401. 404 when there is no such token.',
        security: bearer,
        params: IdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const id = accountIdFrom(request.params.id)
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('scim_tokens')
          .where('id', '=', id)
          .returning('name')
          .executeTakeFirst()
        if (!row) throw notFound()
        await recordAudit(trx, {
          type: 'scim_token_revoked',
          ...audit(request),
          details: { name: row.name },
          at: now(),
        })
      })
      return answerWithoutBody(reply, 204)
    },
  )
})
