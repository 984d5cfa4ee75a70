import { connect, type Socket } from 'node:net'

export interface KeepAliveResult {
  /** Statuses of the answers received, in order. */
  statuses: number[]
  /** Requests written that never got a complete answer (the connection was reset or closed). */
  lost: number
  /** Errors on the connection (ECONNRESET and the like), whether or not a request was pending. */
  errors: string[]
  /** How the connection ended. */
  ending: 'connection: close' | 'closed while idle' | 'reset' | 'stopped'
  /** Whether every answer after the first `Connection: close` ... was the last one. */
  sawClose: boolean
}

interface Parsed {
  status: number
  close: boolean
  length: number
}

function parseHead(head: string): Parsed {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  const header = (name: string) =>
    new RegExp(`\\r\\n${name}:\\s*([^\\r]*)`, 'i').exec(head)?.[1]?.trim() ?? ''
  if (/chunked/i.test(header('transfer-encoding'))) throw new Error('chunked answers not expected')
  return {
    status,
    close: /close/i.test(header('connection')),
    length: Number(header('content-length') || 0),
  }
}

/**
 * A well-behaved HTTP/1.1 keep-alive client on one connection: sends a request, reads the whole
 * answer, sends the next, until the server says `Connection: close`, closes the connection, or
 * `stop()` is called. It counts what a load generator would: answers, and requests lost to a
 * reset or a close.
 */
export function keepAliveClient(
  port: number,
  nextRequest: () => string,
): {
  done: Promise<KeepAliveResult>
  stop: () => void
  ready: Promise<void>
  /** How many answers it has had so far. */
  answered: () => number
} {
  const result: KeepAliveResult = {
    statuses: [],
    lost: 0,
    errors: [],
    ending: 'stopped',
    sawClose: false,
  }
  let stopped = false
  let pending = false
  let buffer = Buffer.alloc(0)
  const socket: Socket = connect(port, '127.0.0.1')
  socket.setNoDelay(true)
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })

  const send = () => {
    if (stopped) {
      socket.end()
      return
    }
    pending = true
    socket.write(nextRequest())
  }

  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const headEnd = buffer.indexOf('\r\n\r\n')
      if (headEnd < 0) return
      const parsed = parseHead(buffer.subarray(0, headEnd).toString('latin1'))
      const total = headEnd + 4 + parsed.length
      if (buffer.length < total) return
      buffer = buffer.subarray(total)
      pending = false
      result.statuses.push(parsed.status)
      if (parsed.close) {
        result.sawClose = true
        result.ending = 'connection: close'
        socket.end()
        return
      }
      setImmediate(send)
    }
  })
  const done = new Promise<KeepAliveResult>((resolve) => {
    socket.on('error', (error: NodeJS.ErrnoException) => {
      result.errors.push(error.code ?? error.message)
    })
    socket.on('close', () => {
      if (pending) result.lost += 1
      if (result.errors.includes('ECONNRESET')) result.ending = 'reset'
      else if (result.ending === 'stopped' && !stopped) result.ending = 'closed while idle'
      resolve(result)
    })
  })
  void ready.then(send, () => {})
  return {
    ready,
    done,
    answered: () => result.statuses.length,
    stop: () => {
      stopped = true
    },
  }
}
