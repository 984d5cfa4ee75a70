import AjvCompiler from '@fastify/ajv-compiler'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

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

/** The `schemaController` option of Fastify with its default compilers made lazy. */
export function lazySchemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator: lazyFactory(
        AjvCompiler() as unknown as Factory<Validate>,
        lazyValidator,
      ) as never,
      buildSerializer: lazyFactory(
        SerializerSelector() as unknown as Factory<Serialize>,
        lazySerializer,
      ) as never,
    },
  }
}
