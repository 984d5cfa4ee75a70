import { isIP } from 'node:net'
import { resolve } from 'node:path'

export type Env = Readonly<Record<string, string | undefined>>

const TRUE_WORDS = ['true', '1', 'yes', 'on']
const FALSE_WORDS = ['false', '0', 'no', 'off']
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const DURATION = /^(\d{1,9})\s*(s|m|h|d)?$/i
const SECONDS_PER_UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }
/** The names Fastify's trust-proxy understands besides addresses and networks. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal']

/** Values are echoed in messages; keep them short and printable. */
export function quote(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?')
  return JSON.stringify(printable.length > 60 ? `${printable.slice(0, 57)}...` : printable)
}

/** A URL as it may appear in a log or an error: any password in it replaced. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(unparsable URL)'
  }
}

/**
 * Reads typed values out of the environment. Collects every problem instead of stopping at the
 * first, so one restart fixes them all. Secrets are never echoed in a problem.
 */
export class EnvReader {
  readonly problems: string[] = []

  constructor(private readonly env: Env) {}

  /** The raw value, with surrounding blanks dropped; an empty value counts as unset. */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim()
    return value === '' ? undefined : value
  }

  port(name: string, fallback: number): number {
    const value = this.raw(name)
    if (value === undefined) return fallback
    const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN
    if (!(port >= 0 && port <= 65535)) {
      this.problems.push(
        `${name}=${quote(value)} is not a port: use a whole number from 0 to 65535`,
      )
      return fallback
    }
    return port
  }

  host(name: string, fallback: string): string {
    const value = this.raw(name)
    if (value === undefined) return fallback
    if (isIP(value) === 0 && !HOST_NAME.test(value)) {
      this.problems.push(
        `${name}=${quote(value)} is not an address to listen on: use an IP address (127.0.0.1, 0.0.0.0, ::) or a host name`,
      )
      return fallback
    }
    return value
  }

  flag(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase()
    if (value === undefined) return fallback
    if (TRUE_WORDS.includes(value)) return true
    if (FALSE_WORDS.includes(value)) return false
    this.problems.push(`${name}=${quote(value)} is not a yes/no value: use true or false`)
    return fallback
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name)?.toLowerCase()
    if (value === undefined) return fallback
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name}=${quote(value)} is not one of ${allowed.join(', ')}`)
      return fallback
    }
    return value as T
  }

  /** A whole number within [min, max]. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name)
    if (value === undefined) return fallback
    const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN
    if (!(number >= min && number <= max)) {
      this.problems.push(`${name}=${quote(value)} is not a whole number from ${min} to ${max}`)
      return fallback
    }
    return number
  }

  /** A folder, made absolute against the working directory. */
  path(name: string, fallback: string): string {
    return resolve(this.raw(name) ?? fallback)
  }

  /** A URL with one of the given protocols (`postgres:`); `secret` keeps its password out of messages. */
  url(name: string, protocols: readonly string[], secret = false): string | null {
    const value = this.raw(name)
    if (value === undefined) return null
    const shown = secret ? quote(withoutPassword(value)) : quote(value)
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      this.problems.push(`${name}=${shown} is not a URL`)
      return null
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(
        `${name}=${shown} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      )
      return null
    }
    return value
  }

  /** A duration: `90` (seconds), `30m`, `12h`, `7d`; within [min, max] seconds. */
  duration(name: string, fallbackSeconds: number, minSeconds: number, maxSeconds: number): number {
    const value = this.raw(name)
    if (value === undefined) return fallbackSeconds
    const match = DURATION.exec(value)
    const seconds = match
      ? Number(match[1]) * (SECONDS_PER_UNIT[(match[2] ?? 's').toLowerCase()] ?? 1)
      : Number.NaN
    if (!(seconds >= minSeconds && seconds <= maxSeconds)) {
      this.problems.push(
        `${name}=${quote(value)} is not a duration from ${minSeconds} s to ${maxSeconds / 86_400} days: use e.g. 90, 30m, 12h or 7d`,
      )
      return fallbackSeconds
    }
    return seconds
  }

  /** A value checked by a predicate; `describe` says what it should be. */
  matching(
    name: string,
    isValid: (value: string) => boolean,
    describe: string,
    secret = false,
  ): string | null {
    const value = this.raw(name)
    if (value === undefined) return null
    if (!isValid(value)) {
      this.problems.push(secret ? `${name} ${describe}` : `${name}=${quote(value)} ${describe}`)
      return null
    }
    return value
  }

  /**
   * Which proxies in front of the server to believe about the client's address:
   * `false` (none), `true` (any: only when nothing else can reach the server), a number of hops,
   * or a comma-separated list of addresses, networks (10.0.0.0/8) and loopback/linklocal/uniquelocal.
   */
  trustProxy(name: string): boolean | number | string[] {
    const value = this.raw(name)
    if (value === undefined) return false
    const lower = value.toLowerCase()
    if (FALSE_WORDS.includes(lower)) return false
    if (lower === 'true') return true
    if (/^\d{1,2}$/.test(value)) return Number(value)
    const entries = value.split(',').map((entry) => entry.trim())
    const bad = entries.filter((entry) => {
      if (PROXY_NAMES.includes(entry.toLowerCase())) return false
      const [address = '', bits, ...rest] = entry.split('/')
      const family = isIP(address)
      if (family === 0 || rest.length > 0) return true
      if (bits === undefined) return false
      const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : -1
      return prefix < 0 || prefix > (family === 4 ? 32 : 128)
    })
    if (bad.length > 0) {
      this.problems.push(
        `${name}=${quote(value)} is not a proxy setting: use false, true, a number of hops, or addresses/networks (${bad.map(quote).join(', ')} not understood)`,
      )
      return false
    }
    return entries
  }
}
