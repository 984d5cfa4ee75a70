/**
 * Which test files share a process (scripts/run-unit-tests.ts). Starting a process and loading a
 * compiled test file with the server's code took about 0.7 s of a core (a file that imports only
 * the server's test fixture, `node --enable-source-maps <file>.mjs`, quiet machine): for 175
 * files, about two of the SQLite pass's minutes of CPU. Files that share a process load the
 * server's code once; scripts/test-files-together.ts keeps each file's hooks its own.
 *
 * `alone`: files that keep a process to themselves (the long ones, which start first, and any
 * that changes the process for everyone in it). The rest go `perProcess` at a time, in order.
 */
export function testProcesses(
  files: readonly string[],
  alone: ReadonlySet<string>,
  perProcess: number,
): string[][] {
  const processes: string[][] = []
  let shared: string[] = []
  for (const file of files) {
    if (alone.has(file)) {
      processes.push([file])
      continue
    }
    shared.push(file)
    if (shared.length === perProcess) {
      processes.push(shared)
      shared = []
    }
  }
  if (shared.length > 0) processes.push(shared)
  return processes
}
