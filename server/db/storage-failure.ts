/**
 * Failures of the storage itself (the disk is full, the database or its folder read-only) as
 * opposed to a query's own error: the request can be right and still fail. Both engines' codes
 * are read here, so callers ask one question.
 */
export type StorageProblem = 'no-space' | 'read-only' | 'no-permission' | 'io' | 'busy'

const SQLITE_CODES: [RegExp, StorageProblem][] = [
  [/^SQLITE_FULL/, 'no-space'],
  [/^SQLITE_READONLY/, 'read-only'],
  [/^SQLITE_PERM/, 'no-permission'],
  [/^SQLITE_CANTOPEN/, 'no-permission'],
  [/^SQLITE_IOERR/, 'io'],
  // Another process holds the embedded database's write lock (db/sqlite-dialect.ts waits first).
  [/^SQLITE_BUSY/, 'busy'],
]

const NODE_CODES: Record<string, StorageProblem> = {
  ENOSPC: 'no-space',
  EDQUOT: 'no-space',
  EROFS: 'read-only',
  EACCES: 'no-permission',
  EPERM: 'no-permission',
  EIO: 'io',
}

/** PostgreSQL SQLSTATEs: disk_full, read_only_sql_transaction, insufficient_privilege. */
const POSTGRES_CODES: Record<string, StorageProblem> = {
  '53100': 'no-space',
  '25006': 'read-only',
}

export function storageProblem(error: unknown): StorageProblem | null {
  if (error instanceof StorageUnavailableError) return error.problem
  if (typeof error !== 'object' || error === null || !('code' in error)) return null
  const code = String(error.code)
  for (const [pattern, problem] of SQLITE_CODES) if (pattern.test(code)) return problem
  return NODE_CODES[code] ?? POSTGRES_CODES[code] ?? null
}

/**
 * A query that failed because the storage cannot write. Its statusCode makes the error handler
 * answer 503 (not 500): the request was fine, the server is not able to keep it right now.
 */
export class StorageUnavailableError extends Error {
  readonly statusCode = 503
  readonly code = 'storage_unavailable'
  /** Set when trying again soon may work (a lock let go): the answer's Retry-After. */
  retryAfterSeconds?: number

  constructor(
    readonly problem: StorageProblem,
    options: { cause: unknown },
  ) {
    super(`the database cannot write (${problem})`, options)
    this.name = 'StorageUnavailableError'
  }
}

/** Rethrows a storage failure as StorageUnavailableError; any other error as it is. */
export function asStorageError(error: unknown): unknown {
  const problem = storageProblem(error)
  return problem && !(error instanceof StorageUnavailableError)
    ? new StorageUnavailableError(problem, { cause: error })
    : error
}
