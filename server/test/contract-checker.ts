import addFormats from 'ajv-formats'
import { OpenAPIBackend, type Document } from 'openapi-backend'

/** One request and its answer, as a test saw them. */
export interface Exchange {
  method: string
  /** Path and query, as sent. */
  url: string
  headers: Record<string, string>
  /** The body as sent (a parsed JSON value, or a string), undefined when none. */
  body: unknown
  status: number
  responseBody: string
}

/** Everything needed to send the request again, and what came back. */
export function describeExchange(exchange: Exchange): string {
  const curlBody =
    exchange.body === undefined
      ? ''
      : ` --json '${(typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body)).replace(/'/g, "'\\''")}'`
  const headers = Object.entries(exchange.headers)
    .filter(([name]) => !['content-length', 'host', 'user-agent', 'content-type'].includes(name))
    .map(([name, value]) => ` -H '${name}: ${value}'`)
    .join('')
  return `curl -X ${exchange.method} "$URL${exchange.url}"${headers}${curlBody}\n  → ${exchange.status} ${exchange.responseBody.slice(0, 500)}`
}

interface ResponseObject {
  content?: Record<string, { schema?: unknown }>
}

/**
 * Compares what the server did with what its OpenAPI document says, with openapi-backend (an
 * independent implementation: its router matches the request to an operation, its Ajv
 * validators check request and answer against the document's schemas). A violation is:
 * - an /api request the document has no operation for, answered other than 404;
 * - a status the operation does not list;
 * - a request the document calls invalid that the server accepted (2xx);
 * - an answer body that does not match the schema of its status, or a body where the document
 *   says there is none.
 */
export class ContractChecker {
  private constructor(private readonly api: OpenAPIBackend) {}

  /** One per document in a test process: its operations' validators are kept once compiled. */
  private static readonly made = new Map<string, Promise<ContractChecker>>()

  static create(document: unknown): Promise<ContractChecker> {
    const key = JSON.stringify(document)
    let checker = ContractChecker.made.get(key)
    if (!checker) {
      checker = ContractChecker.compile(document)
      ContractChecker.made.set(key, checker)
    }
    return checker
  }

  private static async compile(document: unknown): Promise<ContractChecker> {
    const api = new OpenAPIBackend({
      definition: structuredClone(document) as Document,
      strict: true,
      validate: true,
      // Each operation's validators compiled at its first check, not the whole document's at
      // once: that took 4 s in every test process that made an app (the document is some 290 KB),
      // and a test file checks a few operations. "Quick" also skips checking the document
      // against OpenAPI's own schema, which server/openapi/openapi.test.ts and
      // `npm run lint` do (scripts/lint-openapi.ts).
      quick: true,
      ajvOpts: { strict: false, allErrors: true, validateFormats: true },
      // Ajv knows no format by itself: without these, `format` in the document (uuid, date-time,
      // date, uri) was ignored with a warning, and an id, a time or an address of any shape passed.
      customizeAjv: (ajv) => {
        addFormats(ajv, ['date', 'date-time', 'uuid', 'uri'])
        return ajv
      },
    })
    await api.init()
    return new ContractChecker(api)
  }

  check(exchange: Exchange): string[] {
    const [path = '', query = ''] = exchange.url.split('?', 2)
    const request = {
      method: exchange.method.toLowerCase(),
      path,
      query,
      headers: exchange.headers,
      body: exchange.body,
    }
    // Fastify answers `/api/staff` and `/api/staff/` alike; the document names one of them.
    const operation =
      this.api.matchOperation(request) ??
      this.api.matchOperation({
        ...request,
        path: path.endsWith('/') ? path.slice(0, -1) : `${path}/`,
      })
    if (!operation) {
      return exchange.status === 404
        ? []
        : [`no operation in the document for ${exchange.method} ${path}`]
    }
    const problems: string[] = []
    // The server ignores query parameters it does not read, as HTTP APIs usually do; the
    // document describes the ones it reads, so only those are held against it.
    const declared = new Set(
      (operation.parameters ?? []).flatMap((parameter) =>
        'in' in parameter && parameter.in === 'query' ? [parameter.name] : [],
      ),
    )
    const known = new URLSearchParams()
    for (const [name, value] of new URLSearchParams(query)) {
      if (declared.has(name)) known.append(name, value)
    }
    const requestValid = this.api.validateRequest(
      { ...request, query: known.toString() },
      operation,
    ).valid
    if (!requestValid && exchange.status < 400) {
      problems.push(
        `the document calls this request invalid, the server answered ${exchange.status}`,
      )
    }
    const responses = (operation.responses ?? {}) as Record<string, ResponseObject>
    const documented =
      responses[String(exchange.status)] ??
      responses[`${Math.floor(exchange.status / 100)}XX`] ??
      responses.default
    if (!documented) {
      problems.push(
        `${exchange.status} is not among the documented answers (${Object.keys(responses).join(', ')}) of ${operation.operationId}`,
      )
      return problems
    }
    const schema = documented.content?.['application/json']?.schema
    if (schema === undefined) {
      if (exchange.responseBody !== '' && !documented.content) {
        problems.push(`a body where the document says ${exchange.status} has none`)
      }
      return problems
    }
    let body: unknown
    try {
      body = JSON.parse(exchange.responseBody)
    } catch {
      problems.push(`the answer is not JSON though the document says ${exchange.status} is`)
      return problems
    }
    const result = this.api.validateResponse(body, operation, exchange.status)
    for (const error of result.errors ?? []) {
      problems.push(`answer ${error.instancePath || '/'} ${error.message ?? ''}`)
    }
    return problems
  }
}
