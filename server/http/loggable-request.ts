import { isIPv4, isIPv6 } from 'node:net'
import type { FastifyRequest } from 'fastify'

/**
 * What a log line says of a request, without the personal data it may carry
 * (docs/personal-data.md, "The server's log"): an admin's search (`?q=fulana%40…`), an e-mail or
 * a SCIM filter in a query string, an account's id in a path.
 *
 * The API's and SCIM's requests are named by their route's pattern (`/api/staff/:id`) and the
 * names of their query parameters, not the values (`/api/staff?q&status`); a request under them
 * that no route matched, by its prefix only (`/api/*`), since its path is whatever the caller
 * typed. Anything else (the client's files, a page) is its path, which names nobody, without
 * its query.
 */
export function loggableUrl(request: FastifyRequest): string {
  const raw = request.url
  const mark = raw.indexOf('?')
  const path = mark === -1 ? raw : raw.slice(0, mark)
  const names = mark === -1 ? '' : queryNames(raw.slice(mark + 1))
  const prefix = /^\/(api|scim)(\/|$)/.exec(path)?.[1]
  if (!prefix) return path
  const pattern = request.routeOptions.url
  return (pattern && pattern !== '*' ? pattern : `/${prefix}/*`) + names
}

/** `?q&status`: each parameter's name once, in order, never its value. */
function queryNames(query: string): string {
  const names = new Set<string>()
  for (const pair of query.split('&')) {
    const name = pair.split('=')[0]
    if (!name) continue
    try {
      names.add(decodeURIComponent(name.replace(/\+/g, ' ')))
    } catch {
      names.add('?')
    }
  }
  return names.size === 0 ? '' : `?${[...names].join('&')}`
}

/**
 * The caller's network, not the person's address: an IPv4 address cut to its /24
 * (`203.0.113.0/24`), an IPv6 one to its /48. Enough to see that a flood comes from one network
 * and to block it at the proxy; the full address, where abuse needs it, is kept by what counts
 * failed sign-ins (sign_in_limits) and by the audit log, each with its own retention.
 */
export function loggableAddress(ip: string | undefined): string | undefined {
  if (!ip) return undefined
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`
  if (isIPv6(ip)) return `${expandIPv6(ip).slice(0, 3).join(':')}::/48`
  return undefined
}

/** The eight groups of an IPv6 address, `::` filled in (a zone id dropped). */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.split('::')
  const left = head ? head.split(':') : []
  const right = tail === undefined ? [] : tail ? tail.split(':') : []
  const zeros: string[] =
    tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...zeros, ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
}
