import AjvCompiler from '@fastify/ajv-compiler'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'
import { serializerSchema } from './serializer-schemas'

/**
 * Fastify's own compilers (ajv for what comes in, fast-json-stringify for what goes out), each
 * compiling a route's schema the first time that route uses it instead of while the server
 * starts. Every route has a validator per request part and a serializer per answer status (the
 * standard errors included), and compiling them all was the largest part of a restart's CPU
 * (docs/performance.md): most are never used by a given process, and a first use
 * compiles only that route's.
 *
 * What is compiled, and how, is unchanged: the same compilers with the same options, so a request
 * is checked and an answer written exactly as before. A schema that cannot compile would now fail
 * on its route's first call rather than at start; every route's schemas are compiled by the
 * server tests (the OpenAPI document and the contract checks go through them all).
 */

type Compile<Fn> = (routeDefinition: object) => Fn
type Factory<Fn> = (externalSchemas: unknown, options: unknown) => Compile<Fn>
type Validate = ((...args: unknown[]) => unknown) & { errors?: unknown }
type Serialize = (document: unknown) => string

/** A validator that compiles on its first call; Fastify reads `errors` after a false result. */
export function lazyValidator(compile: () => Validate): Validate {
  let validate: Validate | undefined
  const lazy: Validate = function (this: unknown, ...args: unknown[]) {
    validate ??= compile()
    const result = validate.apply(this, args)
    lazy.errors = validate.errors
    return result
  }
  return lazy
}

/** A serializer that compiles on its first call. */
export function lazySerializer(compile: () => Serialize): Serialize {
  let serialize: Serialize | undefined
  return (document) => (serialize ??= compile())(document)
}

/**
 * A compiler factory whose compilers hand out, for each route, a function that compiles on its
 * first call (`lazy` says how: lazyValidator or lazySerializer).
 */
export function lazyFactory<Fn>(
  factory: Factory<Fn>,
  lazy: (compile: () => Fn) => Fn,
): Factory<Fn> {
  return (externalSchemas, options) => {
    // The compiler itself (an Ajv instance with its formats) is made by the first compile too:
    // a restart that answers before any route needs one does not build it.
    let compile: Compile<Fn> | undefined
    return (routeDefinition) =>
      lazy(() => (compile ??= factory(externalSchemas, options))(routeDefinition))
  }
}

/**
 * Ajv's options (Fastify's `ajv.customOptions`). Bodies are checked as they are: no silent
 * removal of unknown fields, no type coercion.
 *
 * `validateSchema: false`: Ajv would otherwise check each schema against the JSON Schema
 * meta-schema before compiling it, which first compiles the meta-schema itself: 45 ms of a new
 * server's first request with a body or a query (a sign-in's, with the event loop held) against
 * 11 ms without, and 3.5 MB of memory against 0.5 (`node --expose-gc`, Ajv made and one
 * sign-in-like schema compiled, by hand). The schemas are the code's own, fixed at build:
 * api/route-schemas.test.ts checks every route's against the meta-schema instead, with these
 * options otherwise.
 */
export const AJV_OPTIONS = {
  removeAdditional: false,
  coerceTypes: false,
  allErrors: false,
  validateSchema: false,
} as const

/** A serializer factory (fast-json-stringify's) given each answer's schema as serializer-schemas.ts rewrites it. */
export function plainSerializers(
  factory = SerializerSelector() as unknown as Factory<Serialize>,
): Factory<Serialize> {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options)
    return (routeDefinition) =>
      compile({
        ...routeDefinition,
        schema: serializerSchema((routeDefinition as { schema?: unknown }).schema),
      })
  }
}

/** The `schemaController` option of Fastify with its default compilers made lazy. */
export function lazySchemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator: lazyFactory(
        AjvCompiler() as unknown as Factory<Validate>,
        lazyValidator,
      ) as never,
      buildSerializer: lazyFactory(plainSerializers(), lazySerializer) as never,
    },
  }
}
