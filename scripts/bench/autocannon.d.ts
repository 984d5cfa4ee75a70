// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    /** Seconds a request may take before it counts as a timeout. */
    timeout?: number
    pipelining?: number
    method?: string
    headers?: Record<string, string>
    /** Requests sent in turn on each connection; `setupRequest` may change each one as it goes. */
    requests?: RequestSpec[]
    /** A first run whose figures are dropped (autocannon starts the measured run after it). */
    warmup?: { connections?: number; duration?: number }
  }

  interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: RequestSpec) => RequestSpec
  }

  interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p2_5: number
    p50: number
    p90: number
    p97_5: number
    p99: number
  }

  interface Result {
    url: string
    connections: number
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '1xx': number
    '2xx': number
    '3xx': number
    '4xx': number
    '5xx': number
    statusCodeStats: Record<string, { count: number }>
    /** Milliseconds. */
    latency: Histogram
    /** Requests per second, sampled each second; `total` is the number completed. */
    requests: Histogram & { sent: number }
    /** Bytes per second, sampled each second; `total` is every byte read. */
    throughput: Histogram
  }

  /** Without a callback it returns an event emitter that is also a thenable. */
  function autocannon(options: Options): PromiseLike<Result>
  export default autocannon
}
