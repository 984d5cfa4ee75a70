import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { commentPathProblems } from './lint-comment-paths'

const tracked = [
  'server/roles/rank.ts',
  'server/api/api-context.ts',
  'client/src/routing/route.ts',
  'client/src/app/app.css',
]
/**
 * The comment markers of the fixtures below, put together at run time: written out, they would
 * make this file's own text hold comments that name files that do not exist (a reader scanning
 * the text, not the syntax, cannot tell a string from a comment).
 */
const LINE = '/'.repeat(2)
const OPEN = `/${'*'}`
const CLOSE = `${'*'}/`

const check = (file: string, text: string, ignored?: (path: string) => boolean) =>
  commentPathProblems(new Map([[file, text]]), tracked, ignored).map(
    ({ line, path }) => `${line} ${path}`,
  )

describe('comments that name files (scripts/lint-comment-paths.ts)', () => {
  it("passes names that exist: whole, from the side's root, alone, or relative", () => {
    const text = [
      `${LINE} see server/roles/rank.ts, roles/rank.ts and api-context.ts`,
      "const words = 'strings/are-no-comment.ts'",
    ].join('\n')
    assert.deepEqual(check('server/api/x.ts', text), [])
    const relative = `${OPEN}* The route object (../routing/route.ts); <feature>-routes.ts is a pattern. ${CLOSE}`
    assert.deepEqual(check('client/src/app/x.ts', relative), [])
  })

  it("looks a folder's name up where a reader would, never on the other side", () => {
    // A server folder's file named in a client file means a client file of that name.
    assert.deepEqual(check('client/src/app/x.ts', `${LINE} roles/rank.ts`), ['1 roles/rank.ts'])
    assert.deepEqual(check('server/api/x.ts', `${LINE} routing/route.ts`), ['1 routing/route.ts'])
  })

  it('reads the comments after a template literal with a substitution and a regular expression', () => {
    const text = [
      'const a = `x${1}y`',
      `${LINE} gone/after-template.ts`,
      'const r = /a\\/\\/b\\.ts/g',
      `${LINE} gone/after-regex.ts`,
    ].join('\n')
    assert.deepEqual(check('server/x.ts', text), [
      '2 gone/after-template.ts',
      '4 gone/after-regex.ts',
    ])
  })

  it('names, with their line, the files that do not exist, in scripts and stylesheets', () => {
    const text = [
      'const a = 1',
      `${OPEN}*`,
      ' * Moved: auth/trusted-devices.ts',
      ` ${CLOSE}`,
      `${LINE} old.tsx`,
    ].join('\n')
    assert.deepEqual(check('server/x.ts', text), ['3 auth/trusted-devices.ts', '5 old.tsx'])
    assert.deepEqual(check('client/src/app/app.css', `a {}\n${OPEN} gone/theme.css ${CLOSE}`), [
      '2 gone/theme.css',
    ])
    assert.deepEqual(check('client/src/app/x.ts', `${LINE} ./route.ts is not beside me`), [
      '1 ./route.ts',
    ])
  })

  it('leaves alone addresses, what git ignores and the names of other projects', () => {
    const text = [
      `${LINE} https://example.com/docs/page.html and /etc/hosts.conf`,
      `${LINE} reports/bench.json, dist/build-info.json`,
      `${LINE} glewlwyd's OIDC.md`,
    ].join('\n')
    const ignored = (path: string) => path.startsWith('reports/')
    assert.deepEqual(check('scripts/x.ts', text, ignored), [])
  })
})
