/**
 * DATA_DIR cannot be used: in use by another process, not a folder, not writable, read-only, full.
 * main.ts prints the message as one line and exits 78 (EX_CONFIG), like a bad setting: the fix
 * is the operator's, and restarting in a loop would not help.
 */
export class DataDirError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options)
    this.name = 'DataDirError'
  }
}

/** For main.ts: a DataDirError ends the process with its one line and exit 78; others go on. */
export function exitOnDataDirError(error: unknown): never {
  if (!(error instanceof DataDirError)) throw error
  process.stderr.write(`painel: ${error.message}\n`)
  process.exit(78)
}
