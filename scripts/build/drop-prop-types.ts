import { readFile } from 'node:fs/promises'
import type { Plugin } from 'esbuild'

/**
 * CoreUI's components carry `X.propTypes = {…}`, which React only reads in development: in a
 * production build they are bytes every cold load downloads and nothing uses. Taking the
 * assignments out leaves `prop-types` and CoreUI's shared prop-type helpers unused, and esbuild
 * drops them (both packages declare no side effects). What babel-plugin-transform-react-remove-
 * prop-types does, for the one package that needs it, on its published ES modules.
 */
// `X.propTypes = {` over lines up to `};`, or `X.propTypes = Object.assign(…);` on one line.
const PROP_TYPES_ASSIGNMENT = /^\w+\.propTypes = (?:\{\n(?: {4}.*\n)*\};|Object\.assign\(.*\);)\n/gm

export function withoutPropTypes(source: string): string {
  return source.replace(PROP_TYPES_ASSIGNMENT, '')
}

export const dropPropTypes: Plugin = {
  name: 'drop-prop-types',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@coreui[\\/]react[\\/]dist[\\/]esm[\\/].*\.js$/ },
      async (args) => ({
        contents: withoutPropTypes(await readFile(args.path, 'utf8')),
        loader: 'js',
      }),
    )
  },
}
