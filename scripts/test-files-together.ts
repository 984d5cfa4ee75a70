import * as real from 'node:test'

/**
 * `node:test` as the test files of a shared process see it (scripts/test-processes.ts): the
 * calls a file makes while its module is evaluated (its suites, tests and hooks, and those the
 * helpers it calls register) are kept, and then made inside a suite named after the file. So a
 * file's top-level `before`, `after`, `beforeEach` and `afterEach` stay its own, as they were when
 * each file had a process to itself, and a failure is reported under the file's name. Calls made
 * later (inside a suite, during a test) go straight to `node:test`.
 */
interface FileCalls {
  name: string
  calls: (() => unknown)[]
}

/** The file whose module is being evaluated, if its calls are still being kept. */
let current: FileCalls | null = null
const files: FileCalls[] = []

/** Called just before `name`'s module is evaluated (the process's entry imports it next). */
export function startFile(name: string): void {
  current = { name, calls: [] }
  files.push(current)
}

/** Every file's kept calls, each file's in a suite of its own, in the order the files came. */
export function runFiles(): void {
  current = null
  for (const file of files) {
    void real.describe(file.name, () => {
      for (const call of file.calls) call()
    })
  }
}

type Registration = (...args: never[]) => unknown

function kept<F extends Registration>(register: F): F {
  const wrapped = (...args: Parameters<F>) => {
    if (!current) return register(...args)
    current.calls.push(() => register(...args))
    return undefined
  }
  // test.skip, describe.only and the like are kept the same way.
  for (const variant of ['skip', 'todo', 'only'] as const) {
    const inner: unknown = (register as unknown as Record<string, unknown>)[variant]
    if (typeof inner === 'function') {
      Object.assign(wrapped, { [variant]: kept(inner as Registration) })
    }
  }
  return wrapped as unknown as F
}

export const test = kept(real.test)
export const it = kept(real.it)
export const describe = kept(real.describe)
export const before = kept(real.before)
export const after = kept(real.after)
export const beforeEach = kept(real.beforeEach)
export const afterEach = kept(real.afterEach)
export const mock = real.mock
export default test
