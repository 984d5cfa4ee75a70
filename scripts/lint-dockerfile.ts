/**
 * Lints the Dockerfile (or the file named as the first argument) with dockerfile-utils, the
 * checker behind VS Code's Docker extension: it knows every instruction's flags and arguments,
 * so a typo there fails here instead of in a `docker build` nobody runs locally.
 * Warnings fail too: they are mistakes Docker would tolerate today (a lowercase instruction, a
 * second CMD that silently replaces the first).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { validate } from 'dockerfile-utils'
import { root } from './paths'

// LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information, 4 hint.
const ERROR = 1
const WARNING = 2

const path = process.argv[2] ?? join(root, 'Dockerfile')
const fromHere = relative(process.cwd(), path)
const name = fromHere === '' || fromHere.startsWith('..') ? path : fromHere

if (!existsSync(path)) {
  console.error(`${name}: not found; the container is built from it`)
  process.exit(1)
}

const diagnostics = validate(readFileSync(path, 'utf8')).sort(
  (a, b) => a.range.start.line - b.range.start.line,
)
for (const { range, message } of diagnostics) {
  const text = typeof message === 'string' ? message : message.value
  console.log(`${name}:${range.start.line + 1}: ${text}`)
}

const failing = diagnostics.filter(
  ({ severity }) => severity === undefined || severity === ERROR || severity === WARNING,
)
if (failing.length > 0) {
  console.error(`${name}: ${failing.length} problem(s)`)
  process.exit(1)
}
console.log(`${name}: OK (dockerfile-utils found nothing to fix)`)
