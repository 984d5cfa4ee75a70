import { builtinModules } from 'node:module'
import type { Plugin } from 'esbuild'

const BUILTINS = new Set(builtinModules)

/**
 * Node's built-in modules, loaded in the server bundle by `require` instead of `import`.
 *
 * An `import` of a built-in makes Node build an ES module facade that reads every export once, and
 * on Node 22 and later `node:http` exports lazy getters (WebSocket, CloseEvent, MessageEvent) that
 * load all of undici when read: 100 ms or more of a start on Node 26, the container's runtime, for
 * code the server never uses (`npm run bench -- --only startup`, docs/performance.md). A `require`
 * returns the module object without touching its getters, as the packages bundled in (Fastify,
 * pino) already load them. The bundle's banner gives every chunk a `require` of its own
 * (esbuild-options.ts), which esbuild's `__require` calls.
 */
export const builtinsByRequire: Plugin = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '')
      if (!BUILTINS.has(name) || args.kind === 'require-call') return undefined
      return { path: `node:${name}`, namespace: 'builtin-by-require' }
    })
    build.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)})`,
      loader: 'js',
    }))
  },
}
