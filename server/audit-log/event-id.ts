/**
 * Audit event ids: UUIDv7 (RFC 9562), whose text sorts in the order the ids were made. The log
 * is read newest first by time and then id, and one change often writes two events in the same
 * millisecond (re-enabled and role changed, say); with random ids those two came back in either
 * order. Here the 12 bits after the version are a counter within the millisecond (the RFC's
 * "fixed-length dedicated counter"), so events of one server keep the order they were written in.
 */
let lastMs = -1
let counter = 0

const COUNTER_MAX = 0xfff

export function newEventId(now = Date.now()): string {
  let ms = now
  if (ms <= lastMs) {
    // Same millisecond, or the clock stepped back: carry on from the last id.
    ms = lastMs
    counter += 1
    if (counter > COUNTER_MAX) {
      ms += 1
      counter = 0
    }
  } else {
    // A new millisecond starts the counter low and random, leaving room to count up.
    counter = crypto.getRandomValues(new Uint16Array(1))[0]! & 0x3ff
  }
  lastMs = ms

  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const time = BigInt(ms)
  for (let i = 0; i < 6; i += 1) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = 0x70 | (counter >> 8)
  bytes[7] = counter & 0xff
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
