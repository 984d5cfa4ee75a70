import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/**
 * The app instance a TypeBox plugin is given (its routes' types come from their schemas), for a
 * module that adds routes to its feature's plugin.
 */
export type FastifyTypebox = Parameters<FastifyPluginAsyncTypebox>[0]
