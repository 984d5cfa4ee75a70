/**
 * `npm run lint`'s check that every file a comment names exists, so that a comment sending the
 * reader to a module never sends them nowhere (issue 45 found eleven that did). A name counts
 * when it has a file's extension. One with a folder is found where a reader starts looking: the
 * commenting file's own folder, the root of its side (client/src, server, common, scripts, e2e:
 * `accounts/<name>.ts` in a comment of server/http/ is server/accounts/<name>.ts, never a
 * same-named file elsewhere) or the
 * repository's root, or relative to the commenting file when it starts with a dot. One that stands
 * alone (`api-context.ts`) is found when a tracked file has that name. Web addresses, absolute paths, what git ignores
 * (the build's dist/, the bench's reports/, node_modules/) and the few names of ELSEWHERE are not
 * the repository's and are left alone.
 *
 * Comments are read from TypeScript's syntax tree (the comments of .ts, .tsx, .mjs and .js files;
 * strings are not comments), and /* … *\/ in stylesheets.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import ts from 'typescript'
import { root } from './paths'

export interface CommentPathProblem {
  file: string
  line: number
  path: string
}

const EXTENSIONS = 'ts|tsx|mts|mjs|js|json|md|css|html|yaml|yml|sql|sh|txt|toml|conf|svg'
/** A path-like token ending in a file's extension, not glued to a longer word or an address. */
const NAMED_PATH = new RegExp(
  String.raw`(?<![\w@/.:*>-])((?:\.{1,2}/)*(?:[\w.-]+/)*[\w][\w.-]*\.(?:${EXTENSIONS}))(?![\w/-])`,
  'g',
)
const NOT_OURS = /^(?:node_modules|dist|coverage|test-results|playwright-report)\//

/** Names comments give on purpose that are no file of this repository, and why. */
const ELSEWHERE: ReadonlyMap<string, string> = new Map([
  ['OIDC.md', "glewlwyd's documentation (server/test/glewlwyd-provider.ts)"],
  ['webapp/admin.js', "glewlwyd's admin page (server/test/glewlwyd-provider.ts)"],
  ['webapp/login.js', "glewlwyd's login page (server/test/glewlwyd-provider.ts)"],
  ['login.html', "glewlwyd's login page (server/test/glewlwyd-provider.ts)"],
  ['assets/main-X.js', 'an example of a hashed name the build writes (scripts/build/metafile.ts)'],
  ['./file.js', 'an example of an index line (scripts/build/per-file-imports.ts)'],
])

/** The roots a side's comments name their files from (`accounts/…` in server/). */
const SIDES = ['client/src', 'server', 'common', 'scripts', 'e2e']

const SCANNED = /\.(tsx?|mts|mjs|js)$/

/**
 * The comments of a script, with the line each starts on: those before and after every node of
 * its syntax tree. Not TypeScript's bare scanner, which loses its place after a template literal
 * with a substitution (`${…}`) or a regular expression, and then reads comments as code or code
 * as comments.
 */
function commentsOfScript(text: string, tsx: boolean): { text: string; line: number }[] {
  const source = ts.createSourceFile(
    tsx ? 'file.tsx' : 'file.ts',
    text,
    ts.ScriptTarget.Latest,
    false,
    tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
  const starts = new Map<number, number>()
  const note = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) starts.set(range.pos, range.end)
  }
  const visit = (node: ts.Node) => {
    note(ts.getLeadingCommentRanges(text, node.pos))
    note(ts.getTrailingCommentRanges(text, node.end))
    node.forEachChild(visit)
  }
  visit(source)
  note(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos))
  return [...starts]
    .sort(([a], [b]) => a - b)
    .map(([pos, end]) => ({
      text: text.slice(pos, end),
      line: source.getLineAndCharacterOfPosition(pos).line + 1,
    }))
}

function commentsOfStylesheet(text: string): { text: string; line: number }[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((match) => ({
    text: match[0],
    line: text.slice(0, match.index).split('\n').length,
  }))
}

/** Every name a comment gives that no file of `tracked` answers to. */
export function commentPathProblems(
  files: ReadonlyMap<string, string>,
  tracked: readonly string[],
  ignored: (path: string) => boolean = () => false,
): CommentPathProblem[] {
  const known = new Set(tracked)
  const names = new Set(tracked.map((path) => path.slice(path.lastIndexOf('/') + 1)))
  /** The path from the commenting file's folder, from the root of its side, or from the top. */
  const fromAFolderOfTheFile = (file: string, path: string) =>
    [dirname(file), SIDES.find((side) => file.startsWith(`${side}/`)), '.'].some(
      (folder) => folder !== undefined && known.has(folder === '.' ? path : `${folder}/${path}`),
    )
  const problems: CommentPathProblem[] = []
  for (const [file, text] of files) {
    const comments = file.endsWith('.css')
      ? commentsOfStylesheet(text)
      : commentsOfScript(text, file.endsWith('x'))
    for (const comment of comments) {
      for (const match of comment.text.matchAll(NAMED_PATH)) {
        const path = match[1]!
        if (NOT_OURS.test(path) || ELSEWHERE.has(path)) continue
        const exists = path.startsWith('.')
          ? known.has(
              normalize(join(dirname(file), path))
                .split('\\')
                .join('/'),
            )
          : path.includes('/')
            ? fromAFolderOfTheFile(file, path)
            : names.has(path)
        // Asked last: `ignored` may start a process (git check-ignore), and most names exist.
        if (!exists && !ignored(path)) {
          const line = comment.line + comment.text.slice(0, match.index).split('\n').length - 1
          problems.push({ file, line, path })
        }
      }
    }
  }
  return problems
}

function main() {
  const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean)
  const files = new Map<string, string>()
  for (const path of tracked) {
    if (!SCANNED.test(path) && !path.endsWith('.css')) continue
    try {
      files.set(path, readFileSync(join(root, path), 'utf8'))
    } catch {
      // Listed but deleted in the working tree: nothing to read.
    }
  }
  const problems = commentPathProblems(files, tracked, (path) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', '--', path], { cwd: root })
      return true
    } catch {
      return false
    }
  })
  for (const { file, line, path } of problems) {
    console.error(`${file}:${line}: a comment names ${path}, which does not exist`)
  }
  if (problems.length > 0) {
    console.error(`${problems.length} comment(s) name files that do not exist`)
    process.exit(1)
  }
  console.log(`comment paths: every file named in ${files.size} files' comments exists`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
