import { isIP } from 'node:net'

/**
 * Everything the server reads from its environment, parsed once at start.
 * A bad value stops start-up with a message naming the variable, what it got and what it takes:
 * a typo in a container's env must not turn into a server quietly listening somewhere else.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Config {
  port: number
  host: string
  logLevel: LogLevel
  /** Served to browsers over HTTPS (directly or by a proxy): turns on HSTS and upgrade-insecure-requests. */
  https: boolean
}

export class ConfigError extends Error {
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

type Env = Readonly<Record<string, string | undefined>>

/** Collects every problem instead of stopping at the first, so one restart fixes them all. */
class EnvReader {
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
    if (isIP(value) === 0 && !isHostName(value)) {
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
}

const TRUE_WORDS = ['true', '1', 'yes', 'on']
const FALSE_WORDS = ['false', '0', 'no', 'off']

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i

function isHostName(value: string): boolean {
  return HOST_NAME.test(value)
}

/** Values are echoed in messages; keep them short and printable. */
function quote(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?')
  return JSON.stringify(printable.length > 60 ? `${printable.slice(0, 57)}...` : printable)
}

export function loadConfig(env: Env): Config {
  const read = new EnvReader(env)
  const config: Config = {
    port: read.port('PORT', 8080),
    host: read.host('HOST', '127.0.0.1'),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    https: read.flag('HTTPS', false),
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems)
  return config
}
