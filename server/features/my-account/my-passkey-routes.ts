import type { FastifyRequest } from 'fastify'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import {
  PasskeyAddBodySchema,
  PasskeyAnswerSchema,
  PasskeyCreationOptionsSchema,
  PasskeyIdParamsSchema,
  PasskeyListSchema,
  PasskeyRenameBodySchema,
} from '../../../common/api/me'
import { requestOrigin } from '../../http/request-origin'
import type { ApiContext } from '../../api/api-context'
import type { FastifyTypebox } from '../../http/fastify-typebox'
import {
  addMyPasskey,
  myPasskeys,
  passkeyCreationOptions,
  removeMyPasskey,
  renameMyPasskey,
} from './my-passkeys'
import { answerWithoutBody } from '../../http/answer-without-body'
import { bearer } from '../../access/guarded-routes'

/** Set by the my-account plugin's guard, which runs before every route of it. */
const me = (request: FastifyRequest) => ({
  account: request.account!,
  session: request.session!,
})

/**
 * /api/me/passkeys (common/api/me.ts): routes of the my-account plugin (my-account-routes.ts),
 * added under its guard: a session required, no caching, unstorable text refused.
 */
export function myPasskeyRoutes(app: FastifyTypebox, context: ApiContext): void {
  app.get(
    '/passkeys',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'My passkeys, oldest first',
        description:
          "The signed-in person's passkeys, oldest first: name, when added and last used. No key material.",
        security: bearer,
        response: { 200: PasskeyListSchema, ...errorAnswers(401) },
      },
    },
    async (request) => ({ passkeys: await myPasskeys(context, me(request).account) }),
  )

  app.post(
    '/passkeys/options',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'WebAuthn creation options for a new passkey (for startRegistration)',
        description:
          "The challenge is good for 5 minutes, once, and only for this session's POST /passkeys. The account's passkeys are in excludeCredentials.",
        security: bearer,
        response: { 200: PasskeyCreationOptionsSchema, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const { account, session } = me(request)
      return passkeyCreationOptions(context, account, session)
    },
  )

  app.post(
    '/passkeys',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: "Add a passkey: startRegistration's result and a name",
        description:
          '400 invalid_passkey: the answer is not for a challenge this session asked for (or it was used, or is over 5 minutes old), or does not verify (origin, RP ID, signature, user verification), or the credential is registered already.',
        security: bearer,
        body: PasskeyAddBodySchema,
        response: { 201: PasskeyAnswerSchema, ...errorAnswers(400, 401) },
      },
    },
    async (request, reply) => {
      const { account, session } = me(request)
      const passkey = await addMyPasskey(
        context,
        account,
        session,
        request.body.response,
        request.body.name,
        requestOrigin(request),
      )
      return reply.code(201).send({ passkey })
    },
  )

  app.patch(
    '/passkeys/:id',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Rename one of my passkeys',
        description: "Renames one of the signed-in person's passkeys (404 if it is not theirs).",
        security: bearer,
        params: PasskeyIdParamsSchema,
        body: PasskeyRenameBodySchema,
        response: { 200: PasskeyAnswerSchema, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request) => ({
      passkey: await renameMyPasskey(
        context,
        me(request).account,
        request.params.id.toLowerCase(),
        request.body.name,
        requestOrigin(request),
      ),
    }),
  )

  app.delete(
    '/passkeys/:id',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Remove one of my passkeys',
        description:
          "Removes one of the signed-in person's passkeys (404 if it is not theirs); it can no longer sign in.",
        security: bearer,
        params: PasskeyIdParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await removeMyPasskey(
        context,
        me(request).account,
        request.params.id.toLowerCase(),
        requestOrigin(request),
      )
      return answerWithoutBody(reply, 204)
    },
  )
}
