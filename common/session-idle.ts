/**
 * How a session's idle end slides, shared by the server (which writes it) and the client (which
 * warns before it). Every authenticated call is use, but the server writes a session's last use
 * at most once per `idleWriteIntervalMs`, not once per request. A use it did not write is then
 * at most one interval newer than the one it holds, so the idle end is the written use plus the
 * timeout plus that interval: a session used at least once in every stretch shorter than the
 * timeout never ends as idle, and one left alone ends between the timeout and the timeout plus
 * one interval after its last use (a minute at most; a tenth of the timeout below ten minutes).
 */
export function idleWriteIntervalMs(idleTimeoutMs: number): number {
  return Math.min(60_000, Math.floor(idleTimeoutMs / 10))
}

/** When a session whose last written use is `lastWrittenAt` ends for lack of use. */
export function idleEndAfter(lastWrittenAt: number, idleTimeoutMs: number): number {
  return lastWrittenAt + idleTimeoutMs + idleWriteIntervalMs(idleTimeoutMs)
}
